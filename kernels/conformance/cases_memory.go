package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// stepTolerance bounds the particle steps: each a*b+c may be fused, and
// the falling particles' z loses digits to cancellation.
var stepTolerance = Tolerance{Name: "a*b+c may be fused; z cancels: 2 ulp or 1e-6 absolute", ULP: 2, Abs: 1e-6}

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

func memoryCases() []*Case {
	return []*Case{{
		Kernel: ParticlesAoSKernel, Tol: stepTolerance,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{Buffer(particles(r, n)), Scalar(float32(0.01)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchParticlesAoS(s, g, buf[Particle](a, 0), arg[float32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: ParticlesSoAKernel, Tol: stepTolerance,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			ps := particles(r, n)
			field := func(f func(p Particle) float32) []float32 {
				return fillFrom(n, func(i int) float32 { return f(ps[i]) })
			}
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(field(func(p Particle) float32 { return p.X })),
				Buffer(field(func(p Particle) float32 { return p.Z })),
				Buffer(field(func(p Particle) float32 { return p.VX })),
				Buffer(field(func(p Particle) float32 { return p.VZ })),
				Buffer(fillFrom(n, func(i int) uint32 { return ps[i].Hits })),
				Scalar(float32(0.01)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchParticlesSoA(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[float32](a, 3),
				buf[uint32](a, 4), arg[float32](a, 5), arg[uint32](a, 6))
		},
	}, {
		Kernel: UniformsKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 64
			return Inputs{Groups: line(n, 32), Args: []Arg{
				Poisoned[int32](3 * n), Poisoned[uint32](3 * n), Poisoned[float32](2 * n),
				Scalar(int32(r.Uint32())), Scalar(r.Uint32()), Scalar(r.Float32() * 100), Scalar(r.Float32() - 0.5),
				Scalar(int32(r.Uint32())), Scalar(r.Uint32()), Scalar(r.Uint32()), Scalar(int32(r.Uint32())),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchUniforms(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[float32](a, 2),
				arg[int32](a, 3), arg[uint32](a, 4), arg[float32](a, 5), arg[float32](a, 6),
				arg[int32](a, 7), arg[uint32](a, 8), arg[uint32](a, 9), arg[int32](a, 10))
		},
	}, {
		Kernel: PrivateArrayKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 500
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](8 * n), Poisoned[float32](8 * n), Buffer(floats(r, 8*n, -10, 10)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchPrivateArray(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: LenGuardKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[int32](n).Unguarded(), Buffer(anyInts(r, 300)).Unguarded(),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLenGuard(s, g, buf[int32](a, 0), buf[int32](a, 1))
		},
	}}
}
