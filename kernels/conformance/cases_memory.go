package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// stepTolerance bounds the particle steps: each a*b+c may be fused, and
// the falling particles' z loses digits to cancellation.
var stepTolerance = gputest.Tolerance{Name: "a*b+c may be fused; z cancels: 2 ulp or 1e-6 absolute", ULP: 2, Abs: 1e-6}

// particles returns n particles: half high above the floor, half falling
// through it fast, so that no step lands near z = 0.
func particles(r *rand.Rand, n int) []Particle {
	ps := make([]Particle, n)
	for i := range ps {
		p := &ps[i]
		p.X, p.Y = r.Float32()*10, r.Float32()*10
		p.VX, p.VY = r.Float32()*2-1, r.Float32()*2-1
		p.Mass, p.Hits = r.Float32()+0.5, uint32(r.IntN(5))
		if i%2 == 0 {
			p.Z, p.VZ = 1+r.Float32(), r.Float32()*2-1
		} else {
			p.Z, p.VZ = r.Float32()*0.05, -6-4*r.Float32()
		}
	}
	return ps
}

func memoryCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: ParticlesAoSKernel, Tol: stepTolerance,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Buffer(particles(r, n)), gputest.Scalar(float32(0.01)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchParticlesAoS(s, g, buf[Particle](a, 0), gputest.At[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: ParticlesSoAKernel, Tol: stepTolerance,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			ps := particles(r, n)
			field := func(f func(p Particle) float32) []float32 {
				return gputest.FillFrom(n, func(i int) float32 { return f(ps[i]) })
			}
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(field(func(p Particle) float32 { return p.X })),
				gputest.Buffer(field(func(p Particle) float32 { return p.Z })),
				gputest.Buffer(field(func(p Particle) float32 { return p.VX })),
				gputest.Buffer(field(func(p Particle) float32 { return p.VZ })),
				gputest.Buffer(gputest.FillFrom(n, func(i int) uint32 { return ps[i].Hits })),
				gputest.Scalar(float32(0.01)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchParticlesSoA(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[float32](a, 3),
				buf[uint32](a, 4), gputest.At[float32](a, 5), gputest.At[uint32](a, 6))
		},
	}, {
		Kernel: UniformsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 64
			return gputest.Inputs{Groups: line(n, 32), Args: []gputest.Arg{
				gputest.Poisoned[int32](3 * n), gputest.Poisoned[uint32](3 * n), gputest.Poisoned[float32](2 * n),
				gputest.Scalar(int32(r.Uint32())), gputest.Scalar(r.Uint32()), gputest.Scalar(r.Float32() * 100), gputest.Scalar(r.Float32() - 0.5),
				gputest.Scalar(int32(r.Uint32())), gputest.Scalar(r.Uint32()), gputest.Scalar(r.Uint32()), gputest.Scalar(int32(r.Uint32())),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchUniforms(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[float32](a, 2),
				gputest.At[int32](a, 3), gputest.At[uint32](a, 4), gputest.At[float32](a, 5), gputest.At[float32](a, 6),
				gputest.At[int32](a, 7), gputest.At[uint32](a, 8), gputest.At[uint32](a, 9), gputest.At[int32](a, 10))
		},
	}, {
		Kernel: PrivateArrayKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 500
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](8 * n), gputest.Poisoned[float32](8 * n), gputest.Buffer(gputest.Floats(r, 8*n, -10, 10)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchPrivateArray(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: LenGuardKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](n).Unguarded(), gputest.Buffer(gputest.AnyInts(r, 300)).Unguarded(),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLenGuard(s, g, buf[int32](a, 0), buf[int32](a, 1))
		},
	}}
}
