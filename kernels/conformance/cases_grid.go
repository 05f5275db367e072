package conformance

import (
	"fmt"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

func gridCases() []*gputest.Case {
	return append(censusCases(), []*gputest.Case{{
		Kernel: SaxpyKernel,
		Tol:    gputest.Tolerance{Name: "a*x+y may be fused: 1 ulp on positive operands", ULP: 1},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 3000
			return gputest.Inputs{Groups: line(n, 256), Args: []gputest.Arg{
				gputest.Buffer(gputest.Floats(r, n, 0, 1)), gputest.Buffer(gputest.Floats(r, n, 0, 1)), gputest.Scalar(float32(2.5)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSaxpy(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: Grid2DKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const w, h = 100, 37
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(w, 16), Y: xpu.GroupsFor(h, 8)}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](w * h), gputest.Buffer(gputest.AnyUints(r, w*h)), gputest.Scalar(uint32(w)), gputest.Scalar(uint32(h)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchGrid2D(s, g, buf[uint32](a, 0), buf[uint32](a, 1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: Grid3DKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const w, h, d = 10, 9, 7
			return gputest.Inputs{Groups: xpu.Dim3{X: 3, Y: 3, Z: 2}, Args: []gputest.Arg{
				gputest.Poisoned[int32](w * h * d), gputest.Scalar(uint32(w)), gputest.Scalar(uint32(h)), gputest.Scalar(uint32(d)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchGrid3D(s, g, buf[int32](a, 0), gputest.At[uint32](a, 1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: ThreadCoordsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			groups := xpu.Dim3{X: 3, Y: 2, Z: 2}
			items := int(groups.Count()) * 4 * 2 * 2
			return gputest.Inputs{Groups: groups, Args: []gputest.Arg{gputest.Poisoned[uint32](items * coordsPerItem)}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchThreadCoords(s, g, buf[uint32](a, 0))
		},
	}, {
		Kernel: GridStrideKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 5000
			return gputest.Inputs{Groups: xpu.Dim3{X: 4}, Args: []gputest.Arg{gputest.Buffer(gputest.Floats(r, n, -100, 100)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchGridStride(s, g, buf[float32](a, 0), gputest.At[uint32](a, 1))
		},
	}}...)
}

// censusCases launch GroupCensus over grids beyond WebGPU's least 65,535
// groups per dimension, on X alone, on X with rows, and on Y, which the
// WebGPU runtime folds (the grid words), and over one that fits.
func censusCases() []*gputest.Case {
	var cs []*gputest.Case
	for _, g := range []xpu.Dim3{{X: 100_003}, {X: 70_001, Y: 3}, {X: 5, Y: 70_000, Z: 1}, {X: 7, Y: 5, Z: 3}} {
		var known map[string]string
		if g.Y > 65535 {
			// The native tiers dispatch the grid as it is, and CUDA's Y
			// holds 65,535 groups.
			known = map[string]string{string(schema.BackendCUDA): "PTX code does not fold its grid: a Y beyond the device's 65,535 groups is refused (ErrGrid)"}
		}
		cs = append(cs, &gputest.Case{
			Known:  known,
			Label:  fmt.Sprintf("GroupCensus/%dx%dx%d", g.X, g.Norm().Y, g.Norm().Z),
			Kernel: GroupCensusKernel, Tol: gputest.Exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: g, Args: []gputest.Arg{gputest.Poisoned[uint32](int(g.Count())), gputest.Buffer([]uint32{0})}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return LaunchGroupCensus(s, g, buf[uint32](a, 0), buf[uint32](a, 1))
			},
		})
	}
	return cs
}
