package gpu

// This file is the check stage of a launch (see launch.go): what refuses
// a launch before anything is bound, from the kernel, the device, the
// grid, the arguments' count and the options alone.

import (
	"fmt"
	"math/bits"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/schema"
)

// check refuses l when its kernel does not fit its device (when it has
// one), its block option differs from the pinned block, its grid is
// empty or too large, args are not one per parameter, or its deadline
// has passed; it sets l.grid and, on a device, l.art. The caller has checked that the kernel is
// launchable and holds l.dev.life for reading.
func (l *launch) check(args []any) error {
	k := l.kernel
	if err := l.opts.checkBlock(k); err != nil {
		return err
	}
	var lim Limits
	if l.dev != nil {
		a, err := l.dev.fits(k)
		if err != nil {
			return err
		}
		l.art = a
		lim = l.dev.info.Limits
	}
	g, err := checkGrid(k, l.groups, lim)
	if err != nil {
		return err
	}
	l.grid = g
	if len(args) != len(k.spec.Params) {
		return fmt.Errorf("gpu: kernel %s takes %d arguments, got %d: %w", k.spec.Name, len(k.spec.Params), len(args), ErrArgs)
	}
	return l.opts.checkDeadline(k, "before it was checked")
}

// compile, the check stage's last step on a stream, sets l.prog to the
// kernel's program for l.dev, compiling it on first use; a kernel the
// driver cannot compile is refused with ErrCompile.
func (l *launch) compile() error {
	p, err := l.dev.program(l.kernel)
	l.prog = p
	return err
}

// checkGrid returns groups with zero Y and Z as 1, or an ErrGrid error.
func checkGrid(k *Kernel, groups xpu.Dim3, lim Limits) (xpu.Dim3, error) {
	g := groups.Norm()
	if g.X == 0 {
		return g, fmt.Errorf("gpu: kernel %s: empty grid %v: %w", k.spec.Name, groups, ErrGrid)
	}
	if m := lim.MaxGroups; m != 0 && (g.X > m || g.Y > m || g.Z > m) {
		return g, fmt.Errorf("gpu: kernel %s: grid %v exceeds the device's %d groups per dimension: %w", k.spec.Name, g, m, ErrGrid)
	}
	// A work-item's global index on an axis is a uint32 (Thread.GlobalX):
	// a grid of more work-items would repeat indices. Each axis then
	// holds at most 2^32 groups, but their product may not fit the
	// uint64 that counts a launch's groups.
	b := k.spec.Block.Norm()
	for _, ax := range [...]struct {
		name         string
		groups, size uint32
	}{{"X", g.X, b.X}, {"Y", g.Y, b.Y}, {"Z", g.Z, b.Z}} {
		if uint64(ax.groups)*uint64(ax.size) > 1<<32 {
			return g, fmt.Errorf("gpu: kernel %s: grid %v of blocks %v: %d work-items on %s, more than a uint32 global index reaches: %w",
				k.spec.Name, g, b, uint64(ax.groups)*uint64(ax.size), ax.name, ErrGrid)
		}
	}
	if hi, _ := bits.Mul64(uint64(g.X)*uint64(g.Y), uint64(g.Z)); hi != 0 {
		return g, fmt.Errorf("gpu: kernel %s: grid %v has more than 2^64 groups: %w", k.spec.Name, g, ErrGrid)
	}
	return g, nil
}

// checkLimits returns an ErrLimits error when k, running its artifact a,
// does not fit a device with limits lim (a zero limit is absent and not
// checked).
func checkLimits(k *Kernel, a *schema.Artifact, lim Limits) error {
	b := k.spec.Block.Norm()
	fail := func(what string, need, have uint64) error {
		return fmt.Errorf("gpu: kernel %s: %s %d exceeds the device's %d: %w", k.spec.Name, what, need, have, ErrLimits)
	}
	if m := lim.MaxInvocationsPerBlock; m != 0 && b.Count() > uint64(m) {
		return fail("threads per block", b.Count(), uint64(m))
	}
	mb := lim.MaxBlockSize
	for _, ax := range [...]struct {
		name      string
		need, max uint32
	}{{"block X", b.X, mb.X}, {"block Y", b.Y, mb.Y}, {"block Z", b.Z, mb.Z}} {
		if ax.max != 0 && ax.need > ax.max {
			return fail(ax.name, uint64(ax.need), uint64(ax.max))
		}
	}
	if m := lim.MaxSharedBytes; m != 0 && k.spec.SharedBytes > int(m) {
		return fail("shared bytes", uint64(k.spec.SharedBytes), uint64(m))
	}
	nbuf := k.buffers
	if a.Fault {
		nbuf++ // the fault word is a storage buffer too
	}
	if m := lim.MaxStorageBuffers; m != 0 && nbuf > int(m) {
		return fail("storage buffers", uint64(nbuf), uint64(m))
	}
	if m := lim.MaxUniformBytes; m != 0 && k.spec.UniformSize > int(m) {
		return fail("uniform bytes", uint64(k.spec.UniformSize), uint64(m))
	}
	return nil
}
