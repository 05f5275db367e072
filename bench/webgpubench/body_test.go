package webgpubench

// This file holds the benchmark body every driver runs.

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/schema"
)

// rawDrivers open, for each native driver built here, a device of its own
// driven by raw calls of its binding; a file per driver adds its own.
var rawDrivers = map[string]func(b *testing.B) rawDriver{}

// BenchmarkWebGPUDrivers runs the benchmark body (benchDriver) on each
// native driver beside its raw calls, a sub-benchmark per driver.
func BenchmarkWebGPUDrivers(b *testing.B) {
	for _, name := range []string{"wgpu", "dawn"} {
		b.Run(name, func(b *testing.B) {
			open := rawDrivers[name]
			if open == nil {
				b.Skipf("the %s driver is not built here", name)
			}
			benchDriver(b, name, open(b))
		})
	}
}

// rawDriver is one driver's binding of WebGPU, driven by raw calls.
type rawDriver interface {
	// Kernel compiles wgsl, whose entry point is main and whose bindings
	// are one storage buffer per element of bufs (binding 0 read-write,
	// the others read-only) holding it, then a uniform block holding
	// uniforms (a multiple of 16 bytes). When dynamic, the block is bound
	// as the runtime binds it: at a dynamic offset in a buffer as large
	// as its uniform ring.
	Kernel(wgsl string, bufs [][]float32, uniforms []byte, dynamic bool) (rawKernel, error)
}

// rawKernel is a compiled kernel bound to its buffers.
type rawKernel interface {
	// Run records k dispatches of groups in one compute pass, its bind
	// group set once, submits the pass and waits for it to complete.
	Run(groups xpu.Dim3, k int) error
	Release()
}

// benchDriver opens the runtime's WebGPU backend on driver (XPU_WEBGPU)
// and runs the sub-benchmarks beside raw. Each reports, per variant, its figure:
//
//	gen    the generated kernel through its generated launcher
//	hand   the hand-written WGSL through raw calls
//	wgsl   (saxpy, sgemm) the generated kernel's WGSL through raw calls
//	dyn    (dispatch) hand, its uniform block bound as the runtime binds
//	       its ring: at a dynamic offset
//
// and gen/hand, the generated kernel's speed over the hand-written one's
// (1 is equal), and wgsl/hand or dyn/hand, the same for the third
// variant: it tells the generated WGSL's cost, or the binding's, from the
// runtime's.
func benchDriver(b *testing.B, driver string, raw rawDriver) {
	b.Setenv("XPU_WEBGPU", driver)
	d, err := gpu.OpenBackend(schema.BackendWebGPU)
	if errors.Is(err, gpu.ErrUnavailable) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	b.Logf("%s: %s (%s)", driver, d.Info().Name, d.Info().Software)
	b.Run("dispatch-batched", func(b *testing.B) { dispatch(b, d, raw, 1000, 1000) })
	b.Run("dispatch-submit", func(b *testing.B) { dispatch(b, d, raw, 200, 1) })
	b.Run("saxpy", func(b *testing.B) { saxpy(b, d, raw) })
	b.Run("sgemm", func(b *testing.B) { sgemm(b, d, raw) })
	for _, n := range tiledSizes {
		b.Run(fmt.Sprintf("sgemm-tiled/n=%d", n), func(b *testing.B) { sgemmTiled(b, d, raw, n) })
	}
}

// variants times its functions in turn, b.N times each, starting each
// iteration one further along, and returns the total of each.
func variants(b *testing.B, fs ...func() error) []time.Duration {
	for _, f := range fs { // warm each up
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	total := make([]time.Duration, len(fs))
	i := 0
	for b.Loop() {
		for j := range fs {
			v := (i + j) % len(fs)
			t0 := time.Now()
			if err := fs[v](); err != nil {
				b.Fatal(err)
			}
			total[v] += time.Since(t0)
		}
		i++
	}
	return total
}

// report reports the figures of gen, hand and the third variant, named
// third, rate turning a total time into the figure (a rate, or a cost
// when higher is slower), and their ratios to hand as speeds.
func report(b *testing.B, t []time.Duration, third, unit string, rate func(time.Duration) float64, cost bool) {
	gen, hand, other := rate(t[0]), rate(t[1]), rate(t[2])
	b.ReportMetric(gen, "gen-"+unit)
	b.ReportMetric(hand, "hand-"+unit)
	b.ReportMetric(other, third+"-"+unit)
	if cost {
		b.ReportMetric(hand/gen, "gen/hand")
		b.ReportMetric(hand/other, third+"/hand")
	} else {
		b.ReportMetric(gen/hand, "gen/hand")
		b.ReportMetric(other/hand, third+"/hand")
	}
}

// pattern returns n floats of a small repeating pattern.
func pattern(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i%7) * 0.25
	}
	return v
}

// kernel compiles wgsl through raw, on buffers holding bufs.
func kernel(b *testing.B, raw rawDriver, wgsl string, bufs [][]float32, uniforms []byte, dynamic bool) rawKernel {
	k, err := raw.Kernel(wgsl, bufs, uniforms, dynamic)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(k.Release)
	return k
}

// dispatch makes launches small saxpy launches (256 elements, one
// group), submitted and waited for after every perSync of them.
func dispatch(b *testing.B, d *gpu.Device, raw rawDriver, launches, perSync int) {
	const n = 256
	y, x := upload(b, d, n), upload(b, d, n)
	s := d.Stream()
	g := xpu.Dim3{X: 1, Y: 1, Z: 1}
	bufs, u := [][]float32{pattern(n), pattern(n)}, saxpyUniforms(0.5, n)
	hand, dyn := kernel(b, raw, saxpyWGSL, bufs, u, false), kernel(b, raw, saxpyWGSL, bufs, u, true)
	viaRaw := func(k rawKernel) func() error {
		return func() error {
			for range launches / perSync {
				if err := k.Run(g, perSync); err != nil {
					return err
				}
			}
			return nil
		}
	}
	t := variants(b,
		func() error {
			for i := range launches {
				if err := kernels.LaunchSaxpy(s, g, y, x, 0.5, n); err != nil {
					return err
				}
				if (i+1)%perSync == 0 {
					if err := s.Sync(); err != nil {
						return err
					}
				}
			}
			return nil
		},
		viaRaw(hand), viaRaw(dyn))
	report(b, t, "dyn", "us/dispatch", func(t time.Duration) float64 {
		return float64(t.Nanoseconds()) / 1e3 / float64(b.N*launches)
	}, true)
}

func saxpy(b *testing.B, d *gpu.Device, raw rawDriver) {
	const n = 1 << 22
	y, x := upload(b, d, n), upload(b, d, n)
	s := d.Stream()
	g := xpu.Dim3{X: xpu.GroupsFor(n, 256), Y: 1, Z: 1}
	bufs, u := [][]float32{pattern(n), pattern(n)}, saxpyUniforms(0.5, n)
	hand, wgsl := kernel(b, raw, saxpyWGSL, bufs, u, false), kernel(b, raw, wgslOf(kernels.SaxpyKernel), bufs, u, false)
	t := variants(b,
		func() error {
			if err := kernels.LaunchSaxpy(s, g, y, x, 0.5, n); err != nil {
				return err
			}
			return s.Sync()
		},
		func() error { return hand.Run(g, 1) },
		func() error { return wgsl.Run(g, 1) })
	report(b, t, "wgsl", "GB/s", func(t time.Duration) float64 {
		return 12 * n * float64(b.N) / t.Seconds() / 1e9
	}, false)
}

func sgemm(b *testing.B, d *gpu.Device, raw rawDriver) {
	const n = 256
	c, x, y := upload(b, d, n*n), upload(b, d, n*n), upload(b, d, n*n)
	s := d.Stream()
	g := xpu.Dim3{X: n / 16, Y: n / 16, Z: 1}
	bufs, u := [][]float32{pattern(n * n), pattern(n * n), pattern(n * n)}, sgemmUniforms(n, n, n, 1, 0)
	hand, wgsl := kernel(b, raw, sgemmWGSL, bufs, u, false), kernel(b, raw, wgslOf(conformance.SgemmKernel), bufs, u, false)
	t := variants(b,
		func() error {
			if err := conformance.LaunchSgemm(s, g, c, x, y, n, n, n, 1, 0); err != nil {
				return err
			}
			return s.Sync()
		},
		func() error { return hand.Run(g, 1) },
		func() error { return wgsl.Run(g, 1) })
	report(b, t, "wgsl", "GFLOP/s", func(t time.Duration) float64 {
		return 2 * n * n * n * float64(b.N) / t.Seconds() / 1e9
	}, false)
}

func upload(b *testing.B, d *gpu.Device, n int) *gpu.Buffer[float32] {
	buf, err := gpu.Upload(d, pattern(n))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(buf.Release)
	return buf
}

// wgslOf returns the WGSL of k's artifact for any webgpu device.
func wgslOf(k *gpu.Kernel) string {
	if a := driver.Pick(k.Spec(), schema.BackendWebGPU, 0, 0); a != nil {
		return a.Code
	}
	return ""
}
