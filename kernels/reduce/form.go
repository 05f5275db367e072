package reduce

// This file is the two forms of the kernels, the shared-memory and the
// wave one, and the choice between them: a tuner's measured answer
// (tune.Tuner.Pays), where the device runs the wave form at all.

import (
	"fmt"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/tune"
)

// A form is one combine within a block: the kernels that use it, as
// handles and launchers.
type form struct {
	name                                     string
	sumK, dotK, maxK, argMaxK, pairsK, scanK *gpu.Kernel
	sumUK, scanUK                            *gpu.Kernel // over uint32

	sum, max    func(s *gpu.Stream, groups xpu.Dim3, out, x *gpu.Buffer[float32], n, chunk uint32) error
	dot         func(s *gpu.Stream, groups xpu.Dim3, out, x, y *gpu.Buffer[float32], n, chunk uint32) error
	argMax      func(s *gpu.Stream, groups xpu.Dim3, keys, indices *gpu.Buffer[uint32], x *gpu.Buffer[float32], n, chunk uint32) error
	argMaxPairs func(s *gpu.Stream, groups xpu.Dim3, keys, indices, inKeys, inIndices *gpu.Buffer[uint32], n, chunk uint32) error
	scan        func(s *gpu.Stream, groups xpu.Dim3, out, x, offsets *gpu.Buffer[float32], n, chunk, exclusive uint32) error
	sumU        func(s *gpu.Stream, groups xpu.Dim3, out, x *gpu.Buffer[uint32], n, chunk uint32) error
	scanU       func(s *gpu.Stream, groups xpu.Dim3, out, x, offsets *gpu.Buffer[uint32], n, chunk, exclusive uint32) error
}

// shared is the form of the trees in shared memory: every device runs it.
var shared = &form{
	name: "shared",
	sumK: SumSharedKernel, dotK: DotSharedKernel, maxK: MaxSharedKernel,
	argMaxK: ArgMaxSharedKernel, pairsK: ArgMaxPairsSharedKernel, scanK: ScanSharedKernel,
	sum: LaunchSumShared, max: LaunchMaxShared, dot: LaunchDotShared,
	argMax: LaunchArgMaxShared, argMaxPairs: LaunchArgMaxPairsShared, scan: LaunchScanShared,
	sumUK: SumUint32SharedKernel, scanUK: ScanUint32SharedKernel, sumU: LaunchSumUint32Shared, scanU: LaunchScanUint32Shared,
}

// wave is the form of wave verbs, at the device's own width.
var wave = &form{
	name: "wave",
	sumK: SumWaveKernel, dotK: DotWaveKernel, maxK: MaxWaveKernel,
	argMaxK: ArgMaxWaveKernel, pairsK: ArgMaxPairsWaveKernel, scanK: ScanWaveKernel,
	sum: LaunchSumWave, max: LaunchMaxWave, dot: LaunchDotWave,
	argMax: LaunchArgMaxWave, argMaxPairs: LaunchArgMaxPairsWave, scan: LaunchScanWave,
	sumUK: SumUint32WaveKernel, scanUK: ScanUint32WaveKernel, sumU: LaunchSumUint32Wave, scanU: LaunchScanUint32Wave,
}

// PaysName is the question a Reducer asks its tuner for operation op
// (sum, dot, max, argmax, scan, sum-uint32, scan-uint32): whether the wave form beats the shared
// one, per device and length rounded up to a power of two ("n=4096").
// The tuner's store files the answer under "pays/" and the name, and
// tune.Tuner.Force["pays/"+PaysName(op)] = "wave" (or "shared") forces
// a form.
func PaysName(op string) string { return "kernels/reduce.wave/" + op }

// runs reports whether d runs every one of kernels: code for d's backend
// that fits it, at a wave width d has.
func runs(d *gpu.Device, kernels ...*gpu.Kernel) bool {
	for _, k := range kernels {
		if k.Refused() != "" {
			return false
		}
		if ok, err := d.KernelAvailable(k); !ok || err != nil {
			return false
		}
		if _, ok := d.Manifest(k); !ok {
			return false
		}
	}
	return true
}

// uses names the kernels each operation launches in form f.
var uses = map[string]func(f *form) []*gpu.Kernel{
	"sum":         func(f *form) []*gpu.Kernel { return []*gpu.Kernel{f.sumK} },
	"dot":         func(f *form) []*gpu.Kernel { return []*gpu.Kernel{f.dotK, f.sumK} },
	"max":         func(f *form) []*gpu.Kernel { return []*gpu.Kernel{f.maxK} },
	"argmax":      func(f *form) []*gpu.Kernel { return []*gpu.Kernel{f.argMaxK, f.pairsK} },
	"scan":        func(f *form) []*gpu.Kernel { return []*gpu.Kernel{f.sumK, f.scanK} },
	"sum-uint32":  func(f *form) []*gpu.Kernel { return []*gpu.Kernel{f.sumUK} },
	"scan-uint32": func(f *form) []*gpu.Kernel { return []*gpu.Kernel{f.sumUK, f.scanUK} },
}

// contest is what a Reducer with a tuner learns once, in New, of an
// operation on its device: whether the device runs its wave form, and
// the code hashes of the two forms, the variants' builds.
type contest struct {
	waveRuns           bool
	waveHash, baseHash string
}

// contests returns the contest of every operation on d.
func contests(d *gpu.Device) map[string]contest {
	cs := make(map[string]contest, len(uses))
	for op, u := range uses {
		cs[op] = contest{runs(d, u(wave)...), tune.CodeHash(d, u(wave)...), tune.CodeHash(d, u(shared)...)}
	}
	return cs
}

// launch records operation op over n elements on s in the form r's tuner
// chooses: the shared one with no tuner, a pinned one, or a device that
// does not run the operation's wave kernels; otherwise the one
// tune.Tuner.Pays answers, measured (on these buffers) the first time the
// device and length's bucket are asked.
func (r *Reducer) launch(s *gpu.Stream, op string, n int, run func(f *form) error) error {
	c := r.contests[op]
	if r.tu == nil || !c.waveRuns {
		return run(shared)
	}
	a := tune.Variant{Name: wave.name, Hash: c.waveHash, Run: func() error { return run(wave) }}
	b := tune.Variant{Name: shared.name, Hash: c.baseHash, Run: func() error { return run(shared) }}
	pays, _, err := r.tu.Pays(s, PaysName(op), tune.KeyOf(tune.Dim{Name: "n", Size: tune.Pow2(n)}), a, b)
	if err != nil {
		return fmt.Errorf("reduce: %s: %w", op, err)
	}
	if pays {
		return run(wave)
	}
	return run(shared)
}
