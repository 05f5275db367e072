package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

func gridCases() []*Case {
	return []*Case{{
		Kernel: SaxpyKernel,
		Tol:    Tolerance{Name: "a*x+y may be fused: 1 ulp on positive operands", ULP: 1},
		Setup: func(r *rand.Rand) Inputs {
			const n = 3000
			return Inputs{Groups: line(n, 256), Args: []Arg{
				Buffer(floats(r, n, 0, 1)), Buffer(floats(r, n, 0, 1)), Scalar(float32(2.5)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSaxpy(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[float32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: Grid2DKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const w, h = 100, 37
			return Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(w, 16), Y: xpu.GroupsFor(h, 8)}, Args: []Arg{
				Poisoned[uint32](w * h), Buffer(anyUints(r, w*h)), Scalar(uint32(w)), Scalar(uint32(h)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchGrid2D(s, g, buf[uint32](a, 0), buf[uint32](a, 1), arg[uint32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: Grid3DKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const w, h, d = 10, 9, 7
			return Inputs{Groups: xpu.Dim3{X: 3, Y: 3, Z: 2}, Args: []Arg{
				Poisoned[int32](w * h * d), Scalar(uint32(w)), Scalar(uint32(h)), Scalar(uint32(d)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchGrid3D(s, g, buf[int32](a, 0), arg[uint32](a, 1), arg[uint32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: ThreadCoordsKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			groups := xpu.Dim3{X: 3, Y: 2, Z: 2}
			items := int(groups.Count()) * 4 * 2 * 2
			return Inputs{Groups: groups, Args: []Arg{Poisoned[uint32](items * coordsPerItem)}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchThreadCoords(s, g, buf[uint32](a, 0))
		},
	}, {
		Kernel: GridStrideKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 5000
			return Inputs{Groups: xpu.Dim3{X: 4}, Args: []Arg{Buffer(floats(r, n, -100, 100)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchGridStride(s, g, buf[float32](a, 0), arg[uint32](a, 1))
		},
	}}
}
