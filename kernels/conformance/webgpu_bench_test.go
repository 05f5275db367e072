package conformance_test

import (
	"errors"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/conformance"
)

// The generated kernels beside the same kernels written by hand in WGSL,
// run through the same WebGPU driver, for each driver compiled in
// (XPU_WEBGPU picks it at open time). The hand-written kernels take the
// generated ones' parameters and block, so they are launched alike.

const handSaxpyWGSL = `
struct Uniforms { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read_write> y: array<f32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<uniform> u: Uniforms;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < u.n {
		y[i] = u.a * x[i] + y[i];
	}
}
`

const handSgemmWGSL = `
struct Uniforms { m: u32, n: u32, k: u32, alpha: f32, beta: f32 }
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<uniform> u: Uniforms;

var<workgroup> ta: array<f32, 256>;
var<workgroup> tb: array<f32, 256>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) g: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
	let col = g.x * 16u + l.x;
	let row = g.y * 16u + l.y;
	var acc = 0.0;
	for (var k0 = 0u; k0 < u.k; k0 += 16u) {
		var av = 0.0;
		var bv = 0.0;
		if row < u.m && k0 + l.x < u.k { av = a[row * u.k + k0 + l.x]; }
		if col < u.n && k0 + l.y < u.k { bv = b[(k0 + l.y) * u.n + col]; }
		ta[l.y * 16u + l.x] = av;
		tb[l.y * 16u + l.x] = bv;
		workgroupBarrier();
		for (var kk = 0u; kk < 16u; kk++) {
			acc += ta[l.y * 16u + kk] * tb[kk * 16u + l.x];
		}
		workgroupBarrier();
	}
	if row < u.m && col < u.n {
		c[row * u.n + col] = u.alpha * acc + u.beta * c[row * u.n + col];
	}
}
`

var (
	handSaxpy = gpu.Register(handSpec(conformance.SaxpyKernel, "HandSaxpy", handSaxpyWGSL))
	handSgemm = gpu.Register(handSpec(conformance.SgemmKernel, "HandSgemm", handSgemmWGSL))
)

func handSpec(k *gpu.Kernel, name, wgsl string) *gpu.KernelSpec {
	spec := *k.Spec()
	spec.Name = "github.com/goxpu/xpu/kernels/conformance_test." + name
	spec.WGSL = wgsl
	spec.CPU = nil
	return &spec
}

// BenchmarkWebGPUDrivers reports, per driver, the generated kernel's
// figure beside the hand-written one's and gen/hand, the generated
// kernel's speed over the hand-written one's (1 is equal; above 1 the
// generated one is faster), for costs and rates alike.
func BenchmarkWebGPUDrivers(b *testing.B) {
	for _, drv := range []string{"wgpu", "dawn"} {
		b.Run(drv, func(b *testing.B) {
			b.Setenv("XPU_WEBGPU", drv)
			d, err := gpu.OpenBackend("webgpu")
			if errors.Is(err, gpu.ErrUnavailable) {
				b.Skip(err)
			}
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			b.Logf("%s: %s (%s)", drv, d.Info().Name, d.Info().Facts["webgpu-driver"])
			b.Run("dispatch-batched", func(b *testing.B) { benchDispatch(b, d, 1000, 1000) })
			b.Run("dispatch-submit", func(b *testing.B) { benchDispatch(b, d, 200, 1) })
			b.Run("saxpy", func(b *testing.B) { benchSaxpy(b, d) })
			b.Run("sgemm", func(b *testing.B) { benchSgemm(b, d) })
		})
	}
}

// pair times gen and hand alternately, b.N times each, and returns the
// total of each.
func pair(b *testing.B, gen, hand func() error) (tGen, tHand time.Duration) {
	timed := func(f func() error) time.Duration {
		t0 := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	if err := gen(); err != nil { // warm both up
		b.Fatal(err)
	}
	if err := hand(); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			tGen += timed(gen)
			tHand += timed(hand)
		} else {
			tHand += timed(hand)
			tGen += timed(gen)
		}
		i++
	}
	return tGen, tHand
}

// benchDispatch makes launches small saxpy launches (256 elements), a
// Sync after every perSync of them.
func benchDispatch(b *testing.B, d *gpu.Device, launches, perSync int) {
	const n = 256
	y, x := newBuf(b, d, n), newBuf(b, d, n)
	s := d.Stream()
	g := xpu.Dim3{X: 1}
	run := func(launch func() error) func() error {
		return func() error {
			for i := range launches {
				if err := launch(); err != nil {
					return err
				}
				if (i+1)%perSync == 0 {
					if err := s.Sync(); err != nil {
						return err
					}
				}
			}
			return nil
		}
	}
	tGen, tHand := pair(b,
		run(func() error { return conformance.LaunchSaxpy(s, g, y, x, 0.5, n) }),
		run(func() error { return s.Launch(handSaxpy, g, y, x, float32(0.5), uint32(n)) }))
	per := func(t time.Duration) float64 { return float64(t.Nanoseconds()) / 1e3 / float64(b.N*launches) }
	b.ReportMetric(per(tGen), "gen-us/dispatch")
	b.ReportMetric(per(tHand), "hand-us/dispatch")
	b.ReportMetric(per(tHand)/per(tGen), "gen/hand")
}

func benchSaxpy(b *testing.B, d *gpu.Device) {
	const n = 1 << 22
	y, x := newBuf(b, d, n), newBuf(b, d, n)
	s := d.Stream()
	g := xpu.Dim3{X: xpu.GroupsFor(n, 256)}
	tGen, tHand := pair(b,
		func() error { return timeIt(s, func() error { return conformance.LaunchSaxpy(s, g, y, x, 0.5, n) }) },
		func() error {
			return timeIt(s, func() error { return s.Launch(handSaxpy, g, y, x, float32(0.5), uint32(n)) })
		})
	gbs := func(t time.Duration) float64 { return 12 * n * float64(b.N) / t.Seconds() / 1e9 }
	b.ReportMetric(gbs(tGen), "gen-GB/s")
	b.ReportMetric(gbs(tHand), "hand-GB/s")
	b.ReportMetric(gbs(tGen)/gbs(tHand), "gen/hand")
}

func benchSgemm(b *testing.B, d *gpu.Device) {
	const n = 256
	c, x, y := newBuf(b, d, n*n), newBuf(b, d, n*n), newBuf(b, d, n*n)
	s := d.Stream()
	g := xpu.Dim3{X: n / 16, Y: n / 16}
	tGen, tHand := pair(b,
		func() error {
			return timeIt(s, func() error { return conformance.LaunchSgemm(s, g, c, x, y, n, n, n, 1, 0) })
		},
		func() error {
			return timeIt(s, func() error {
				return s.Launch(handSgemm, g, c, x, y, uint32(n), uint32(n), uint32(n), float32(1), float32(0))
			})
		})
	gflops := func(t time.Duration) float64 { return 2 * n * n * n * float64(b.N) / t.Seconds() / 1e9 }
	b.ReportMetric(gflops(tGen), "gen-GFLOP/s")
	b.ReportMetric(gflops(tHand), "hand-GFLOP/s")
	b.ReportMetric(gflops(tGen)/gflops(tHand), "gen/hand")
}

// timeIt runs f's launches and waits for them.
func timeIt(s *gpu.Stream, f func() error) error {
	if err := f(); err != nil {
		return err
	}
	return s.Sync()
}

func newBuf(b *testing.B, d *gpu.Device, n int) *gpu.Buffer[float32] {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(i%7) * 0.25
	}
	buf, err := gpu.Upload(d, v)
	if err != nil {
		b.Fatal(err)
	}
	return buf
}
