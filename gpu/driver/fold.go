package driver

import "github.com/goxpu/xpu"

// MaxFoldedGroups bounds the groups of a folded grid: below it a folded
// dispatch numbers its groups in a uint32 (schema.WordFolded).
const MaxFoldedGroups = 1 << 31

// Fold returns the physical grid of a dispatch of code that reads the
// grid words (schema.Manifest.Folds) over groups on a device of max
// groups per dimension, and whether it folds: groups itself when no axis
// exceeds max; else, for at most MaxFoldedGroups groups, a grid of max
// groups on X and as many rows on Y as hold them, whose groups past the
// last return at once. ok is false when groups cannot fold.
func Fold(groups xpu.Dim3, max uint32) (phys xpu.Dim3, folded, ok bool) {
	g := groups.Norm()
	if max == 0 || (g.X <= max && g.Y <= max && g.Z <= max) {
		return g, false, true
	}
	n := uint64(g.X) * uint64(g.Y) * uint64(g.Z)
	if n > MaxFoldedGroups || uint64(max)*uint64(max) < n {
		return g, false, false
	}
	x := uint64(max)
	return xpu.Dim3{X: max, Y: uint32((n + x - 1) / x), Z: 1}, true, true
}
