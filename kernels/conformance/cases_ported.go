package conformance

import (
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// bodies returns n bodies at random in the cube [-1, 1)^3 with masses in
// [0.5, 1.5).
func bodies(r *rand.Rand, n int) []Body {
	return gputest.FillFrom(n, func(int) Body {
		return Body{X: r.Float32()*2 - 1, Y: r.Float32()*2 - 1, Z: r.Float32()*2 - 1, W: r.Float32() + 0.5}
	})
}

func portedCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: NBodyKernel,
		Tol: gputest.Tolerance{Name: "sums of 320 interactions in the same order, each of a sqrt and a division " +
			"(WGSL: 2.5 ulp each) and products that may be fused; the sum cancels", ULP: 64, Abs: 1e-3, Rel: 1e-4},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 300 // five tiles, the last one partial
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[Body](n), gputest.Buffer(bodies(r, n)), gputest.Scalar(uint32(n)), gputest.Scalar(float32(0.01)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchNBody(s, g, buf[Body](a, 0), buf[Body](a, 1), gputest.At[uint32](a, 2), gputest.At[float32](a, 3))
		},
	}, {
		Kernel: BlackScholesKernel,
		Tol: gputest.Tolerance{Name: "exp, log and sqrt within a few ulp on WGSL, a polynomial that may be fused; " +
			"prices up to 100 whose differences cancel", ULP: 16, Abs: 1e-4, Rel: 1e-5},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1500 // a grid-stride loop: more options than work-items
			return gputest.Inputs{Groups: xpu.Dim3{X: 4}, Args: []gputest.Arg{
				gputest.Poisoned[float32](n), gputest.Poisoned[float32](n),
				gputest.Buffer(gputest.Floats(r, n, 5, 30)), gputest.Buffer(gputest.Floats(r, n, 1, 100)), gputest.Buffer(gputest.Floats(r, n, 0.25, 10)),
				gputest.Scalar(float32(0.02)), gputest.Scalar(float32(0.30)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBlackScholes(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[float32](a, 3), buf[float32](a, 4),
				gputest.At[float32](a, 5), gputest.At[float32](a, 6), gputest.At[uint32](a, 7))
		},
	}, {
		Kernel: MandelbrotKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const w, h = 72, 40 // partial blocks on both axes
			// Few iterations: a longer orbit near the boundary drifts
			// with a device's fused multiply-adds beyond what stableGrid
			// tells apart (at 48, one seed in some dozens differed).
			const maxIter = 24
			d := float32(3.0 / w)
			x0 := stableGrid(r, w, h, -1.25, d, maxIter)
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(w, 16), Y: xpu.GroupsFor(h, 16)}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](w * h), gputest.Scalar(uint32(w)), gputest.Scalar(uint32(h)),
				gputest.Scalar(x0), gputest.Scalar(float32(-1.25)), gputest.Scalar(d), gputest.Scalar(uint32(maxIter)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMandelbrot(s, g, buf[uint32](a, 0), gputest.At[uint32](a, 1), gputest.At[uint32](a, 2),
				gputest.At[float32](a, 3), gputest.At[float32](a, 4), gputest.At[float32](a, 5), gputest.At[uint32](a, 6))
		},
	}, {
		Kernel: SgemmTiledKernel,
		Tol:    gputest.Tolerance{Name: "sums of 50 products in the same order, each may be fused", ULP: 4, Rel: 1e-5},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const m, n, k = 70, 90, 50 // no size a multiple of a tile
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n, 64), Y: xpu.GroupsFor(m, 64)}, Args: []gputest.Arg{
				gputest.Poisoned[float32](m * n), gputest.Buffer(gputest.Floats(r, m*k, -1, 1)), gputest.Buffer(gputest.Floats(r, k*n, -1, 1)),
				gputest.Scalar(uint32(m)), gputest.Scalar(uint32(n)), gputest.Scalar(uint32(k)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSgemmTiled(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2),
				gputest.At[uint32](a, 3), gputest.At[uint32](a, 4), gputest.At[uint32](a, 5))
		},
	}}
}

// stableGrid returns a fresh offset x0 of a w x h pixel grid from (x0, y0)
// with step d (x0 near -2.25) at which every pixel's escape count, at most
// maxIter, is the same whether each product of the loop rounds down, to
// nearest or up: a device may fuse a multiply and an add (WGSL allows
// it), which moves a product's rounding by less than an ulp, and near the
// set's boundary that changes the count. Exact counts are then the
// device's, fused or not.
func stableGrid(r *rand.Rand, w, h int, y0, d float32, maxIter uint32) float32 {
	x0 := float32(-2.25)
	// Most offsets are stable; the bound only keeps a bad generator from
	// spinning.
	for range 1000 {
		if x0 = -2.25 + d*r.Float32(); gridStable(w, h, x0, y0, d, maxIter) {
			break
		}
	}
	return x0
}

// gridStable reports whether every pixel's count agrees under the three
// roundings of the products.
func gridStable(w, h int, x0, y0, d float32, maxIter uint32) bool {
	for py := range h {
		for px := range w {
			cr, ci := x0+float32(px)*d, y0+float32(py)*d
			n := escape(cr, ci, maxIter, 0)
			if escape(cr, ci, maxIter, -1) != n || escape(cr, ci, maxIter, 1) != n {
				return false
			}
		}
	}
	return true
}

// escape is Mandelbrot's count for c = (cr, ci), each product moved one
// float32 step toward -Inf (dir -1), +Inf (dir 1) or left (0).
func escape(cr, ci float32, maxIter uint32, dir int) uint32 {
	mul := func(a, b float32) float32 {
		p := a * b
		switch dir {
		case -1:
			return math.Nextafter32(p, float32(math.Inf(-1)))
		case 1:
			return math.Nextafter32(p, float32(math.Inf(1)))
		}
		return p
	}
	var zr, zi float32
	it := uint32(0)
	for ; it < maxIter; it++ {
		zr2, zi2 := mul(zr, zr), mul(zi, zi)
		if zr2+zi2 > 4 {
			break
		}
		zi = mul(2*zr, zi) + ci
		zr = zr2 - zi2 + cr
	}
	return it
}
