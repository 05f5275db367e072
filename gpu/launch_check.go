package gpu

// This file is the check stage of a launch (see launch.go): what refuses
// a launch before anything is bound, from the kernel, the device, the
// grid, the arguments' count and the options alone.

import (
	"fmt"
	"math/bits"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
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
		l.entry = l.dev.entry(k)
		a, err := l.dev.fitIn(l.entry, k)
		if err != nil {
			return err
		}
		l.art = a
		lim = l.dev.info.Limits
	}
	g, err := checkGrid(k, l.groups, lim, l.art != nil && l.art.Folds())
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
	p, err := l.dev.compileIn(l.entry, l.kernel)
	l.prog = p
	return err
}

// checkGrid returns groups with zero Y and Z as 1, or an ErrGrid error.
// Code that folds (schema.Manifest.Folds) runs a grid beyond the device's
// groups per dimension, folded (driver.Fold).
func checkGrid(k *Kernel, groups xpu.Dim3, lim Limits, folds bool) (xpu.Dim3, error) {
	g := groups.Norm()
	if g.X == 0 {
		return g, fmt.Errorf("gpu: kernel %s: empty grid %v: %w", k.spec.Name, groups, ErrGrid)
	}
	if m := lim.Grid(); m.X != 0 && (g.X > m.X || g.Y > m.Y || g.Z > m.Z) {
		if !folds {
			if m.X == m.Y && m.Y == m.Z {
				return g, fmt.Errorf("gpu: kernel %s: grid %v exceeds the device's %d groups per dimension: %w", k.spec.Name, g, m.X, ErrGrid)
			}
			return g, fmt.Errorf("gpu: kernel %s: grid %v exceeds the device's %v groups per axis: %w", k.spec.Name, g, m, ErrGrid)
		}
		if _, _, ok := driver.Fold(g, lim.MaxGroups); !ok {
			return g, fmt.Errorf("gpu: kernel %s: grid %v exceeds the device's %d groups per dimension, and a folded grid holds at most %d groups: %w",
				k.spec.Name, g, lim.MaxGroups, driver.MaxFoldedGroups, ErrGrid)
		}
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
// does not fit a device with limits lim: the first limit [Exceeds]
// reports.
func checkLimits(k *Kernel, a *schema.Artifact, lim Limits) error {
	if ex := Exceeds(&a.Manifest, lim); len(ex) > 0 {
		return fmt.Errorf("gpu: kernel %s: %v: %w", k.spec.Name, ex[0], ErrLimits)
	}
	return nil
}

// An Excess is one limit of a device that a kernel's code exceeds.
type Excess struct {
	// Limit names the limit as refusals and the tuner's verdicts spell
	// it: "threads per block", "block X" (Y, Z), "shared bytes",
	// "storage buffers", "uniform bytes", "registers per block" (where
	// the manifest says the registers per work-item).
	Limit      string
	Need, Have uint64
}

func (e Excess) String() string {
	return fmt.Sprintf("%s %d exceeds the device's %d", e.Limit, e.Need, e.Have)
}

// Exceeds returns each limit of lim that the code m describes exceeds,
// in the order of Excess.Limit's list; none when it fits. m is a
// completed manifest (an artifact's as registered, or a device's view
// of it: [Device.Manifest]); its storage buffers count the fault word
// where the code has one. A zero limit is absent and exceeds nothing.
func Exceeds(m *schema.Manifest, lim Limits) []Excess {
	var ex []Excess
	check := func(limit string, need uint64, have uint64) {
		if have != 0 && need > have {
			ex = append(ex, Excess{Limit: limit, Need: need, Have: have})
		}
	}
	b, mb := m.Block.Norm(), lim.MaxBlockSize
	check("threads per block", b.Count(), uint64(lim.MaxInvocationsPerBlock))
	check("block X", uint64(b.X), uint64(mb.X))
	check("block Y", uint64(b.Y), uint64(mb.Y))
	check("block Z", uint64(b.Z), uint64(mb.Z))
	check("shared bytes", uint64(max(m.SharedBytes, 0)), uint64(lim.MaxSharedBytes))
	nbuf := m.StorageBindings
	if m.Fault {
		nbuf++ // the fault word is a storage buffer too
	}
	check("storage buffers", uint64(nbuf), uint64(lim.MaxStorageBuffers))
	check("uniform bytes", uint64(max(m.UniformBytes, 0)), uint64(lim.MaxUniformBytes))
	if m.Registers != nil {
		check("registers per block", uint64(max(*m.Registers, 0))*b.Count(), uint64(lim.MaxRegistersPerBlock))
	}
	return ex
}
