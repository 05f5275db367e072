package cpubench

// This file measures the CPU backend's host tier (the LLVM lowering,
// vectorized across work-items) beside its Go tier (the Go lowering) on
// the conformance suite's kernels of real shape, as their public sources
// spell them, each pair in the same run on the same inputs.

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/kernels/conformance"
)

// tierGoal is the ratio the host tier aims at over the Go tier on dev:
// 4x where its code has AVX-512 (16 lanes), 2x with AVX2 (8).
func tierGoal(dev *gpu.Device) float64 {
	if dev.Info().Limits.SubgroupMax >= 16 {
		return 4
	}
	return 2
}

// openTier opens the CPU backend at one tier, on every core, its host
// code capped at the level $XPU_CPU_ISA names, as gpu.Open reads it
// (XPU_CPU_ISA=x86-64-v3 measures the AVX2 code on an AVX-512 machine).
func openTier(t cpu.Tier) (*gpu.Device, error) {
	dev, err := gpu.OpenCPU(cpu.Config{Tier: t, ISA: os.Getenv("XPU_CPU_ISA")})
	if err != nil {
		return nil, fmt.Errorf("cpubench: %w", err)
	}
	return dev, nil
}

// tierRun is one kernel's launch on a device: set up its buffers, launch
// it, and return what it wrote.
type tierRun struct {
	name  string
	unit  string
	work  float64 // units of work per launch (bytes, flops, iterations)
	tol   float64 // relative difference allowed between the tiers' results
	setup func(dev *gpu.Device) (launch func() error, result func() ([]float32, error), release func(), err error)
}

// measureTiers runs r on the Go tier and on the host tier and returns the
// row: the host tier's figure beside the Go tier's.
func measureTiers(cfg Config, r tierRun) (Result, error) {
	res := Result{Name: fmt.Sprintf("%s, host tier, %d cores", r.name, runtime.GOMAXPROCS(0)),
		Ref: "Go tier, same run", Unit: r.unit}
	var outs [2][]float32
	var times [2]time.Duration
	for i, t := range []cpu.Tier{cpu.TierGo, cpu.TierHost} {
		dev, err := openTier(t)
		if err != nil {
			return res, err
		}
		if t == cpu.TierHost {
			res.Goal = tierGoal(dev)
		}
		launch, result, release, err := r.setup(dev)
		if err != nil {
			dev.Close()
			return res, err
		}
		run := func() error {
			if err := launch(); err != nil {
				return err
			}
			return dev.Stream().Sync()
		}
		// The result of one launch is compared, before the measurement's
		// launches change it (saxpy adds to its y).
		if err = run(); err == nil {
			outs[i], err = result()
		}
		if err == nil {
			times[i], err = measure(cfg.MinTime, run)
		}
		release()
		dev.Close()
		if err != nil {
			return res, fmt.Errorf("cpubench: %s on the %v tier: %w", r.name, t, err)
		}
	}
	for j := range outs[0] {
		g, h := float64(outs[0][j]), float64(outs[1][j])
		if math.Abs(g-h) > r.tol*math.Max(1, math.Max(math.Abs(g), math.Abs(h))) {
			return res, fmt.Errorf("cpubench: %s: element %d is %v on the Go tier, %v on the host tier", r.name, j, g, h)
		}
	}
	res.RefValue = r.work / times[0].Seconds() / 1e9
	res.Value = r.work / times[1].Seconds() / 1e9
	return res, nil
}

// floatsOut sets up a launch whose result is the float32 buffer out.
func floatsOut(dev *gpu.Device, out int, inputs [][]float32, launch func(s *gpu.Stream, bufs []*gpu.Buffer[float32]) error) (func() error, func() ([]float32, error), func(), error) {
	bufs, err := uploads(dev, inputs...)
	if err != nil {
		return nil, nil, nil, err
	}
	return func() error { return launch(dev.Stream(), bufs) },
		func() ([]float32, error) { return bufs[out].Download() },
		func() { release(bufs) }, nil
}

// TierSaxpy is saxpy on vectors that fit in the cache (256 KiB in all).
func TierSaxpy(cfg Config) (Result, error) {
	const n = 1 << 15
	return measureTiers(cfg, tierRun{name: fmt.Sprintf("saxpy n=%d (in cache)", n), unit: "GB/s", work: 64 * 12 * n, tol: 0,
		setup: func(dev *gpu.Device) (func() error, func() ([]float32, error), func(), error) {
			return floatsOut(dev, 0, [][]float32{randomFloats(n, 1), randomFloats(n, 2)}, func(s *gpu.Stream, b []*gpu.Buffer[float32]) error {
				// 64 launches a measurement, so that the launch floor is not measured.
				for range 64 {
					if err := conformance.LaunchSaxpy(s, xpu.Dim3{X: xpu.GroupsFor(n, conformance.SaxpyKernel.Block().X)}, b[0], b[1], 0.5, n); err != nil {
						return err
					}
				}
				return nil
			})
		}})
}

// TierBlackScholes prices options with the CUDA samples' kernel.
func TierBlackScholes(cfg Config) (Result, error) {
	const n = 1 << 20
	s, x, t := randomFloats(n, 3), randomFloats(n, 4), randomFloats(n, 5)
	for i := range s {
		s[i], x[i], t[i] = 5+25*s[i], 1+99*x[i], 0.25+9.75*t[i]
	}
	return measureTiers(cfg, tierRun{name: fmt.Sprintf("Black-Scholes n=%d", n), unit: "Goptions/s", work: n, tol: 1e-4,
		setup: func(dev *gpu.Device) (func() error, func() ([]float32, error), func(), error) {
			return floatsOut(dev, 0, [][]float32{make([]float32, n), make([]float32, n), s, x, t}, func(st *gpu.Stream, b []*gpu.Buffer[float32]) error {
				return conformance.LaunchBlackScholes(st, xpu.Dim3{X: n / 128}, b[0], b[1], b[2], b[3], b[4], 0.02, 0.3, n)
			})
		}})
}

// TierMandelbrot runs the escape-time loop over a 1024x768 image.
func TierMandelbrot(cfg Config) (Result, error) {
	const w, h, iters = 1024, 768, 256
	var pixels float64 = w * h
	return measureTiers(cfg, tierRun{name: fmt.Sprintf("Mandelbrot %dx%d, %d iterations at most", w, h, iters), unit: "Gpixels/s", work: pixels, tol: 0,
		setup: func(dev *gpu.Device) (func() error, func() ([]float32, error), func(), error) {
			out, err := gpu.NewBuffer[uint32](dev, w*h)
			if err != nil {
				return nil, nil, nil, err
			}
			launch := func() error {
				return conformance.LaunchMandelbrot(dev.Stream(), xpu.Dim3{X: w / 16, Y: h / 16}, out, w, h, -2.25, -1.125, 3.0/w, iters)
			}
			result := func() ([]float32, error) {
				got, err := out.Download()
				f := make([]float32, len(got))
				for i, v := range got {
					f[i] = float32(v)
				}
				return f, err
			}
			return launch, result, out.Release, nil
		}})
}

// TierNBody computes the forces among n bodies with the GPU Gems 3 tile.
func TierNBody(cfg Config) (Result, error) {
	const n = 4096
	pos := randomFloats(4*n, 6)
	for i := range pos {
		pos[i] = 2*pos[i] - 1
		if i%4 == 3 {
			pos[i] = pos[i] + 1.5
		}
	}
	bodies := make([]conformance.Body, n)
	for i := range bodies {
		bodies[i] = conformance.Body{X: pos[4*i], Y: pos[4*i+1], Z: pos[4*i+2], W: pos[4*i+3]}
	}
	return measureTiers(cfg, tierRun{name: fmt.Sprintf("n-body forces n=%d", n), unit: "Ginteractions/s", work: n * n, tol: 1e-4,
		setup: func(dev *gpu.Device) (func() error, func() ([]float32, error), func(), error) {
			in, err := gpu.Upload(dev, bodies)
			if err != nil {
				return nil, nil, nil, err
			}
			out, err := gpu.NewBuffer[conformance.Body](dev, n)
			if err != nil {
				in.Release()
				return nil, nil, nil, err
			}
			launch := func() error {
				return conformance.LaunchNBody(dev.Stream(), xpu.Dim3{X: n / 64}, out, in, n, 0.01)
			}
			result := func() ([]float32, error) {
				got, err := out.Download()
				f := make([]float32, 0, 3*len(got))
				for _, b := range got {
					f = append(f, b.X, b.Y, b.Z)
				}
				return f, err
			}
			return launch, result, func() { in.Release(); out.Release() }, nil
		}})
}

// Tiers runs every host-tier measurement.
func Tiers(cfg Config) ([]Result, error) {
	var rs []Result
	for _, f := range []func(Config) (Result, error){TierSaxpy, TierBlackScholes, TierMandelbrot, TierNBody} {
		r, err := f(cfg)
		if err != nil {
			return rs, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// gemmOn measures one SGEMM kernel, at n x n, on dev and returns its
// product and its fastest time; launch launches it on c = a*b.
func gemmOn(cfg Config, dev *gpu.Device, n int, a, b []float32, launch func(s *gpu.Stream, c, a, b *gpu.Buffer[float32]) error) ([]float32, time.Duration, error) {
	bufs, err := uploads(dev, make([]float32, n*n), a, b)
	if err != nil {
		return nil, 0, err
	}
	defer release(bufs)
	d, err := measure(cfg.MinTime, func() error {
		if err := launch(dev.Stream(), bufs[0], bufs[1], bufs[2]); err != nil {
			return err
		}
		return dev.Stream().Sync()
	})
	if err != nil {
		return nil, 0, err
	}
	got, err := bufs[0].Download()
	return got, d, err
}

// benchGemm launches the bench's Gemm on n x n matrices (n a multiple of
// 64).
func benchGemm(n int) func(s *gpu.Stream, c, a, b *gpu.Buffer[float32]) error {
	return func(s *gpu.Stream, c, a, b *gpu.Buffer[float32]) error {
		return kernels.LaunchGemm(s, xpu.Dim3{X: uint32(n / 64), Y: uint32(n / 64)}, c, a, b, uint32(n))
	}
}

// sgemmTiled launches the conformance suite's SgemmTiled, the tutorials'
// spelling, on n x n matrices.
func sgemmTiled(n int) func(s *gpu.Stream, c, a, b *gpu.Buffer[float32]) error {
	groups := xpu.Dim3{X: xpu.GroupsFor(uint32(n), 64), Y: xpu.GroupsFor(uint32(n), 64)}
	return func(s *gpu.Stream, c, a, b *gpu.Buffer[float32]) error {
		return conformance.LaunchSgemmTiled(s, groups, c, a, b, uint32(n), uint32(n), uint32(n))
	}
}

// TierSGEMMSpelling compares, on the host tier, the SGEMM the tutorials
// write (guarded loads, any size) with the benchmark's own register-tiled
// kernel (sizes multiples of 64, no guards): speed should not depend on
// the spelling.
func TierSGEMMSpelling(cfg Config, n int) (Result, error) {
	r := Result{Name: fmt.Sprintf("SGEMM n=%d as the tutorials write it, host tier, %d cores", n, runtime.GOMAXPROCS(0)),
		Ref: "the bench's tiled Gemm, host tier", Unit: "GFLOP/s", Goal: 0.5}
	if n%64 != 0 {
		return r, fmt.Errorf("cpubench: SGEMM size %d is not a multiple of 64", n)
	}
	dev, err := openTier(cpu.TierHost)
	if err != nil {
		return r, err
	}
	defer dev.Close()
	a, b := randomFloats(n*n, 4), randomFloats(n*n, 5)
	flops := 2 * float64(n) * float64(n) * float64(n)
	want, d, err := gemmOn(cfg, dev, n, a, b, benchGemm(n))
	if err != nil {
		return r, err
	}
	r.RefValue = flops / d.Seconds() / 1e9
	got, d, err := gemmOn(cfg, dev, n, a, b, sgemmTiled(n))
	if err != nil {
		return r, err
	}
	if err := sameProduct(n, got, want); err != nil {
		return r, err
	}
	r.Value = flops / d.Seconds() / 1e9
	return r, nil
}

// sameProduct checks two n x n products of matrices in [0, 1) agree.
func sameProduct(n int, got, want []float32) error {
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-4*float64(n) {
			return fmt.Errorf("cpubench: SGEMM c[%d] = %v, the reference product %v", i, got[i], want[i])
		}
	}
	return nil
}
