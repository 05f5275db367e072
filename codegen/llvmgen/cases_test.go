package llvmgen

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/llvmgen/internal/hostkernels"
	"github.com/klauspost/cpuid/v2"
)

// hostCase is a kernel of internal/hostkernels with its reference (the
// same Go function, run by xpu.Run) and fresh inputs.
type hostCase struct {
	name   string
	fn     any
	groups [3]uint32
	// args returns fresh random arguments, output buffers poisoned.
	args func(r *rand.Rand) []any
	tol  tolerance
	// comptime is a template member's comptime value, which the
	// reference takes before args.
	comptime any
	// skip names the buffer arguments whose contents depend on the order
	// blocks run in (compared by check instead, when set).
	skip  map[int]bool
	check func(t *testing.T, want, got []any)
}

// poison is what output buffers hold before a run: a NaN for floats.
const poisonBits = 0x7fc0dead

func poisonF32(n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = math.Float32frombits(poisonBits)
	}
	return s
}

func poisonU32(n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = poisonBits
	}
	return s
}

func poisonI32(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = poisonBits
	}
	return s
}

func randF32(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

func randI32(r *rand.Rand, n int, lo, hi int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = lo + r.Int32N(hi-lo)
	}
	return s
}

// special mixes float32 values that test the edges: signed zeros, NaN,
// infinities, halves, tiny and huge values.
func special(r *rand.Rand, n int) []float32 {
	edge := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		0.5, -0.5, 1.5, 2.5, -2.5, 1e-30, -1e30, 3, -7}
	s := randF32(r, n)
	for i := range s {
		if r.IntN(4) == 0 {
			s[i] = edge[r.IntN(len(edge))]
		}
	}
	return s
}

func groups1(n uint32) [3]uint32 { return [3]uint32{n, 1, 1} }

var hostCases = []hostCase{
	{name: "Saxpy", fn: hostkernels.Saxpy, groups: groups1(4), tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any {
			n := 4*256 - 37
			return []any{randF32(r, n), randF32(r, n), r.Float32(), uint32(n)}
		}},
	{name: "Branches", fn: hostkernels.Branches, groups: groups1(5),
		args: func(r *rand.Rand) []any {
			n := 5*64 - 9
			return []any{poisonF32(n), randF32(r, n), randI32(r, n, 0, 3), uint32(n)}
		}},
	{name: "Loops", fn: hostkernels.Loops, groups: groups1(6),
		args: func(r *rand.Rand) []any {
			n := 6*64 - 3
			in := make([]uint32, n)
			for i := range in {
				in[i] = 1 + r.Uint32N(5000)
			}
			return []any{poisonU32(n), in, uint32(20 + r.IntN(100)), uint32(n)}
		}},
	{name: "MatVec", fn: hostkernels.MatVec, groups: groups1(3), tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any {
			rows, cols := 3*32-5, 37
			return []any{poisonF32(rows), randF32(r, rows*cols), randF32(r, cols), uint32(cols), uint32(rows)}
		}},
	{name: "Permute", fn: hostkernels.Permute, groups: groups1(4),
		args: func(r *rand.Rand) []any {
			n := 4*64 - 11
			src, dst := make([]uint32, n), make([]uint32, n)
			for i, p := range r.Perm(n) {
				dst[i] = uint32(p)
				src[i] = r.Uint32N(uint32(n))
			}
			return []any{poisonI32(n), randI32(r, n, -1000, 1000), src, dst, uint32(n)}
		}},
	{name: "Step", fn: hostkernels.Step, groups: groups1(3),
		args: func(r *rand.Rand) []any {
			n := 3*64 - 20
			ps := make([]hostkernels.Particle, n)
			for i := range ps {
				ps[i] = hostkernels.Particle{X: r.Float32(), Y: r.Float32(), VX: r.Float32() - 0.5, VY: r.Float32() - 0.5, Hits: r.Uint32N(5)}
			}
			return []any{ps, 0.7 * r.Float32(), uint32(n)}
		}},
	{name: "Private", fn: hostkernels.Private, groups: groups1(3),
		args: func(r *rand.Rand) []any {
			n := 3*64 - 1
			return []any{poisonF32(n), randF32(r, n), uint32(n)}
		}},
	{name: "SharedTickets", fn: hostkernels.SharedTickets, groups: groups1(3),
		args: func(r *rand.Rand) []any {
			return []any{poisonU32(300), poisonF32(300), randF32(r, 300)}
		}},
	{name: "Atomics", fn: hostkernels.Atomics, groups: groups1(8),
		skip: map[int]bool{1: true, 3: true, 4: true},
		args: func(r *rand.Rand) []any {
			n := 8*64 - 5
			return []any{make([]uint32, 16), make([]float32, 4), []int32{math.MinInt32, math.MaxInt32, 0},
				make([]int32, 32), poisonU32(n), randI32(r, n, -100000, 100000), uint32(n)}
		},
		check: func(t *testing.T, want, got []any) {
			// Sums of float32s in another order: within a relative bound.
			if d := diff(want[1], got[1], tolerance{rel: 1e-4}); d != "" {
				t.Errorf("float sums:\n%s", d)
			}
			// Which work-item wins a slot depends on the order blocks run
			// in: every slot the reference filled is filled, by a work-item
			// whose value maps to it, that alone won it.
			in, slots, won := want[5].([]int32), got[3].([]int32), got[4].([]uint32)
			wslots := want[3].([]int32)
			for s := range slots {
				if (slots[s] == 0) != (wslots[s] == 0) {
					t.Errorf("slot %d: got %d, want filled=%v", s, slots[s], wslots[s] != 0)
				}
			}
			for i, w := range won {
				mine := slots[uint32(in[i])%32] == int32(i)+1
				if w != 1 && w != 2 || (w == 1) != mine {
					t.Errorf("work-item %d: won %d, slot holds %d", i, w, slots[uint32(in[i])%32])
				}
			}
		}},
	{name: "Grid3", fn: hostkernels.Grid3, groups: [3]uint32{3, 2, 2},
		args: func(r *rand.Rand) []any { return []any{poisonU32(12 * 8 * 8), uint32(12)} }},
	{name: "Grid2", fn: hostkernels.Grid2, groups: [3]uint32{3, 4, 1},
		args: func(r *rand.Rand) []any {
			w, h := 3*12-4, 4*5-2
			return []any{poisonF32(w * h), randF32(r, w*h), uint32(w), uint32(h)}
		}},
	{name: "Funcs", fn: hostkernels.Funcs, groups: groups1(3),
		args: func(r *rand.Rand) []any {
			n := 3*64 - 7
			return []any{poisonF32(n), randF32(r, n), r.Float32(), uint32(r.IntN(6)), uint32(n)}
		}},
	{name: "HelperLoop", fn: hostkernels.HelperLoop, groups: groups1(5),
		args: func(r *rand.Rand) []any {
			cols := 1 + r.IntN(40)
			return []any{poisonF32(5 * 8), randF32(r, 5*cols), uint32(cols)}
		}},
	{name: "IntOps", fn: hostkernels.IntOps, groups: groups1(4),
		args: func(r *rand.Rand) []any {
			n := 4 * 64
			a, b := make([]int32, n), make([]int32, n)
			edge := []int32{0, -1, 1, math.MinInt32, math.MaxInt32, 31, 32, 33, -32}
			for i := range a {
				a[i], b[i] = int32(r.Uint32()), int32(r.Uint32())
				if r.IntN(3) == 0 {
					a[i] = edge[r.IntN(len(edge))]
				}
				if r.IntN(3) == 0 {
					b[i] = edge[r.IntN(len(edge))]
				}
			}
			return []any{poisonI32(n), poisonU32(n), a, b, uint32(n)}
		}},
	{name: "FloatOps", fn: hostkernels.FloatOps, groups: groups1(3), tol: tolerance{ulps: 1},
		args: func(r *rand.Rand) []any {
			n := 3*64 - 13
			return []any{poisonF32(12 * n), poisonI32(3 * n), special(r, n), special(r, n), uint32(n)}
		}},
	{name: "Barrier", fn: hostkernels.Barrier, groups: groups1(3),
		args: func(r *rand.Rand) []any { return []any{poisonU32(3 * 64)} }},
	{name: "Reduce", fn: hostkernels.Reduce, groups: groups1(5), tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any {
			n := 5*128 - 50
			return []any{poisonF32(5), randF32(r, n), uint32(n)}
		}},
	{name: "Stencil", fn: hostkernels.Stencil, groups: [3]uint32{3, 2, 1},
		args: func(r *rand.Rand) []any {
			in := make([]uint32, 24*12)
			for i := range in {
				in[i] = r.Uint32N(1 << 20)
			}
			return []any{poisonU32(24 * 12), in, uint32(24), uint32(r.IntN(2))}
		}},
	{name: "Gemm", fn: hostkernels.Gemm, groups: [3]uint32{2, 2, 1}, tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any {
			n := 128
			return []any{poisonF32(n * n), randF32(r, n*n), randF32(r, n*n), uint32(n)}
		}},
	{name: "Waves", fn: hostkernels.Waves, groups: groups1(3), tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any {
			n := 3 * 60
			in := randI32(r, n, -1000, 1000)
			for i := range in {
				if r.IntN(3) == 0 {
					in[i] = r.Int32N(40) // a source lane for the shuffle
				}
			}
			return []any{poisonI32(14 * n), poisonF32(14 * n), in, special(r, n), uint32(r.IntN(20))}
		}},
	{name: "WavesAt4", fn: hostkernels.WavesAt, comptime: hostkernels.WaveAt{W: 4, Block: 30}, groups: groups1(3), tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any { return wavesAtArgs(r, 3*30) }},
	{name: "WavesAt16", fn: hostkernels.WavesAt, comptime: hostkernels.WaveAt{W: 16, Block: 40}, groups: groups1(3), tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any { return wavesAtArgs(r, 3*40) }},
	{name: "WavesAt32", fn: hostkernels.WavesAt, comptime: hostkernels.WaveAt{W: 32, Block: 80}, groups: groups1(3), tol: tolerance{ulps: 0},
		args: func(r *rand.Rand) []any { return wavesAtArgs(r, 3*80) }},
	{name: "Strided", fn: hostkernels.Strided, groups: groups1(3),
		args: func(r *rand.Rand) []any {
			n := 3*64*3 - 5
			return []any{poisonF32(2*3*64 - 3), poisonI32(3*3*64 - 7), randF32(r, n), uint32(n)}
		}},
	{name: "Rows", fn: hostkernels.Rows, groups: groups1(3),
		args: func(r *rand.Rand) []any {
			n := 3*64 - 6
			in := make([]uint32, n)
			for i := range in {
				in[i] = r.Uint32()
			}
			return []any{poisonU32(n), in, uint32(n)}
		}},
}

func wavesAtArgs(r *rand.Rand, n int) []any {
	in := randI32(r, n, -1000, 1000)
	for i := range in {
		if r.IntN(3) == 0 {
			in[i] = r.Int32N(70) // a source lane for the shuffle
		}
	}
	return []any{poisonI32(9 * n), in, special(r, n), uint32(r.IntN(40))}
}

// TestKernels runs every case on the widest target this machine runs
// (and on x86-64-v3 when that is narrower, and at 16 lanes on v3's
// instructions where v4 does not run), split among three workers,
// against the reference runner.
func TestKernels(t *testing.T) {
	for _, tgt := range append(runnable(), wideOnV3()...) {
		for _, c := range hostCases {
			t.Run(tgt.ISA+"/"+c.name, func(t *testing.T) {
				k := kernel(t, c.name)
				e := load(t, k, tgt)
				r := rand.New(rand.NewPCG(uint64(len(c.name)), 7))
				for round := range 3 {
					args := c.args(r)
					want, got := clone(args), clone(args)
					cfg := xpu.Config{Groups: xpu.Dim3{X: c.groups[0], Y: c.groups[1], Z: c.groups[2]},
						Block: xpu.Dim3{X: k.Block[0], Y: k.Block[1], Z: k.Block[2]}, WaveWidth: Wave(k, tgt)}
					ref := want
					if c.comptime != nil {
						ref = append([]any{c.comptime}, want...)
					}
					if err := xpu.Run(cfg, c.fn, ref...); err != nil {
						t.Fatalf("reference: %v", err)
					}
					var stop uint32
					if res := firstFault(e.run(c.groups, got, 3, &stop)); res.code != 0 {
						t.Fatalf("round %d: code %d, fault %+v", round, res.code, res.fault)
					}
					for i := range args {
						if c.skip[i] || !isSlice(args[i]) {
							continue
						}
						if d := diff(want[i], got[i], c.tol); d != "" {
							t.Fatalf("round %d: argument %d (%s):\n%s", round, i, k.Params[i].Name, d)
						}
					}
					if c.check != nil {
						c.check(t, want, got)
					}
				}
			})
		}
	}
}

func isSlice(a any) bool {
	_, ok := a.([]float32)
	_, u := a.([]uint32)
	_, i := a.([]int32)
	_, p := a.([]hostkernels.Particle)
	return ok || u || i || p
}

// wideOnV3 returns, on a machine that runs x86-64-v3 but not v4, a
// target of v3's instructions with v4's 16 lanes (LLVM splits each
// vector in two), so that the lowering at v4's width runs here too.
func wideOnV3() []Target {
	if cpuid.CPU.X64Level() != 3 {
		return nil
	}
	t := Hosts()[0]
	t.ISA, t.Lanes = "x86-64-v3-16lanes", Hosts()[1].Lanes
	return []Target{t}
}

// runnable returns the targets this machine can run.
func runnable() []Target {
	var out []Target
	for _, t := range Hosts() {
		switch t.ISA {
		case "x86-64-v3":
			if cpuid.CPU.X64Level() >= 3 {
				out = append(out, t)
			}
		case "x86-64-v4":
			if cpuid.CPU.X64Level() >= 4 {
				out = append(out, t)
			}
		case "armv8-a":
			if runtime.GOARCH == "arm64" {
				out = append(out, t)
			}
		}
	}
	return out
}
