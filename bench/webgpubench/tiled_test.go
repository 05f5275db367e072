package webgpubench

// This file holds the SGEMM comparison: kernels/matmul's Tiled members,
// launched through the runtime, beside hand-written register-blocked WGSL
// driven by raw calls.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/schema"
)

// tiledSizes are the square products the comparison runs.
var tiledSizes = []uint32{256, 512, 1024}

// tiledMembers are the members of matmul's family the comparison times,
// the large ones of Tiled, TiledWave and TiledVec: on lavapipe the small ones
// were never the fastest at these sizes (docs/standing.md, Tuning), and
// each costs a launch per round.
var tiledMembers = []struct {
	kernel *gpu.Kernel
	launch func(s *gpu.Stream, groups xpu.Dim3, C, A, B *gpu.Buffer[float32], transA, transB, m, n, k, lda, ldb, ldc uint32, alpha, beta float32) error
}{
	{matmul.Tile64x64Kernel, matmul.LaunchTile64x64},
	{matmul.Tile128x64Kernel, matmul.LaunchTile128x64},
	{matmul.Tile64x128Kernel, matmul.LaunchTile64x128},
	{matmul.Wave64x64W8Kernel, matmul.LaunchWave64x64W8},
	{matmul.Wave64x128W8Kernel, matmul.LaunchWave64x128W8},
	{matmul.Vec64x64Kernel, matmul.LaunchVec64x64},
	{matmul.Vec128x64Kernel, matmul.LaunchVec128x64},
	{matmul.Vec64x128Kernel, matmul.LaunchVec64x128},
	{matmul.Vec128x128Kernel, matmul.LaunchVec128x128},
}

// handTiles are the hand-written kernels' micro-tiles, rows by columns per
// invocation: 64x64 block tiles of 4x4 micro-tiles, 128x64 of 8x4 and
// 128x128 of 8x8.
var handTiles = []struct{ tm, tn uint32 }{{4, 4}, {8, 4}, {8, 8}}

// sgemmTiled times, for a square product of size n, each member of
// tiledMembers through its generated launcher and each hand-written
// kernel (tiledWGSL) through raw calls, and reports each one's GFLOP/s,
// the best of each side, and ours/hand, the best member's speed over the
// best hand-written kernel's (1 is equal).
func sgemmTiled(b *testing.B, d *gpu.Device, raw rawDriver, n uint32) {
	c, x, y := upload(b, d, int(n*n)), upload(b, d, int(n*n)), upload(b, d, int(n*n))
	s := d.Stream()
	bufs, u := [][]float32{pattern(int(n * n)), pattern(int(n * n)), pattern(int(n * n))}, sgemmUniforms(n, n, n, 1, 0)
	var fs []func() error
	var names []string
	for _, m := range tiledMembers {
		w, err := d.KernelWave(m.kernel)
		if err != nil {
			b.Fatal(err)
		}
		if w.Tier == schema.TierEmulated {
			// wgpu-native 0.19 has no subgroups: the wave members run the
			// emulated tier there, which the tuner does not choose, and
			// at these sizes it crashed the driver (a segmentation fault).
			b.Logf("%s: skipped: wave tier %s", m.kernel.Name(), w.Tier)
			continue
		}
		if w.Tier != "" {
			b.Logf("%s: wave tier %s, width %d", m.kernel.Name(), w.Tier, w.Width)
		}
		tile := m.kernel.Spec().Comptime.(matmul.Tile)
		launch := m.launch
		g := matmul.Groups(tile, n, n)
		fs = append(fs, func() error {
			if err := launch(s, g, c, x, y, 0, 0, n, n, n, n, n, n, 1, 0); err != nil {
				return err
			}
			return s.Sync()
		})
		names = append(names, strings.TrimPrefix(m.kernel.Name(), "github.com/goxpu/xpu/kernels/matmul."))
	}
	ours := len(fs)
	var hands []rawKernel
	for _, h := range handTiles {
		k := kernel(b, raw, tiledWGSL(h.tm, h.tn), bufs, u, false)
		hands = append(hands, k)
		g := xpu.Dim3{X: n / (16 * h.tn), Y: n / (16 * h.tm), Z: 1}
		fs = append(fs, func() error { return k.Run(g, 1) })
		names = append(names, fmt.Sprintf("hand%dx%d", 16*h.tm, 16*h.tn))
	}
	checkTiled(b, fs, ours, c, hands)
	t := variants(b, fs...)
	rate := func(t time.Duration) float64 {
		return 2 * float64(n) * float64(n) * float64(n) * float64(b.N) / t.Seconds() / 1e9
	}
	best := func(from, to int) float64 {
		v := 0.0
		for i := from; i < to; i++ {
			v = max(v, rate(t[i]))
		}
		return v
	}
	for i, name := range names {
		b.ReportMetric(rate(t[i]), name+"-GFLOP/s")
	}
	gen, hand := best(0, ours), best(ours, len(fs))
	b.ReportMetric(gen, "gen-GFLOP/s")
	b.ReportMetric(hand, "hand-GFLOP/s")
	b.ReportMetric(gen/hand, "gen/hand")
}

// reader is a raw kernel whose written buffer can be read back.
type reader interface {
	Read() ([]float32, error)
}

// checkTiled runs each variant once and checks that every hand-written
// kernel whose driver reads back (wgpu-native's; Dawn runs the same
// text) computed what the first member of Tiled did, within a relative
// tolerance of 1e-4 over the largest magnitude, so that no figure is of
// a kernel that computes something else.
func checkTiled(b *testing.B, fs []func() error, ours int, c *gpu.Buffer[float32], hands []rawKernel) {
	const tol = 1e-4
	if err := fs[0](); err != nil {
		b.Fatal(err)
	}
	want, err := c.Download()
	if err != nil {
		b.Fatal(err)
	}
	scale := float32(0)
	for _, v := range want {
		scale = max(scale, abs(v))
	}
	for i, k := range hands {
		r, ok := k.(reader)
		if !ok {
			continue
		}
		if err := fs[ours+i](); err != nil {
			b.Fatal(err)
		}
		got, err := r.Read()
		if err != nil {
			b.Fatal(err)
		}
		for j := range want {
			if abs(got[j]-want[j]) > tol*scale {
				b.Fatalf("hand-written kernel %d: C[%d] = %g, Tiled's is %g (tolerance %g)", i, j, got[j], want[j], tol*scale)
			}
		}
	}
}

func abs(v float32) float32 { return max(v, -v) }

// tiledWGSL returns a hand-written tiled SGEMM in the style of the public
// WebGPU write-ups, C = alpha*A*B + beta*C for row-major packed A (m x
// k), B (k x n) and C, each of m, n and k a multiple of its tiles (the
// write-ups' premise, which the benchmark's sizes meet): a 16x16
// workgroup computes a (16*tm) x (16*tn) block of C, each invocation a
// tm x tn micro-tile held in vec4 accumulators (tn 4 or 8: one or two
// vec4 columns, 64 apart); 16-deep slices of A and B are staged in
// workgroup memory with vec4 loads, and the inner loop takes four rows of
// B as vec4s and each of the invocation's rows of A as one vec4, four
// vec4 multiply-adds per row and column vec4.
func tiledWGSL(tm, tn uint32) string {
	bn4 := 4 * tn // the B tile's vec4s a row
	var loads, fmas, stores strings.Builder
	for j := range tn / 4 {
		for r := range 4 {
			fmt.Fprintf(&loads, "\t\t\tlet b%d%d = tb[(4u * q + %du) * %du + l.x + %du];\n", j, r, r, bn4, 16*j)
		}
		fmt.Fprintf(&fmas, "\t\t\t\tacc%d[i] = fma(vec4(av.x), b%d0, fma(vec4(av.y), b%d1, fma(vec4(av.z), b%d2, fma(vec4(av.w), b%d3, acc%d[i]))));\n", j, j, j, j, j, j)
		fmt.Fprintf(&stores, "\t\tlet o%d = o + %du;\n\t\tvar v%d = u.alpha * acc%d[i];\n\t\tif u.beta != 0.0 {\n\t\t\tv%d += u.beta * c[o%d];\n\t\t}\n\t\tc[o%d] = v%d;\n", j, 16*j, j, j, j, j, j, j)
	}
	accs := ""
	for j := range tn / 4 {
		accs += fmt.Sprintf("\tvar acc%d: array<vec4<f32>, %d>;\n", j, tm)
	}
	r := strings.NewReplacer("ACCS", accs, "LOADS", loads.String(), "FMAS", fmas.String(), "STORES", stores.String(),
		"TAN", fmt.Sprint(4*16*tm), "TBN", fmt.Sprint(16*bn4), "TA4", fmt.Sprint(tm/4), "TB4", fmt.Sprint(tn/4),
		"BM", fmt.Sprint(16*tm), "BN4", fmt.Sprint(bn4), "BN", fmt.Sprint(16*tn), "TM", fmt.Sprint(tm))
	return r.Replace(tiledTemplate)
}

// tiledTemplate is tiledWGSL's text: TM the rows per invocation, BM and BN
// the block's rows and columns, BN4 the B tile's vec4s a row, TA4 and TB4
// the A and B vec4s each invocation stages, TAN and TBN the tiles' vec4s;
// ACCS, LOADS, FMAS and STORES the statements per column vec4.
const tiledTemplate = `
struct Uniforms { m: u32, n: u32, k: u32, alpha: f32, beta: f32 }
@group(0) @binding(0) var<storage, read_write> c: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> u: Uniforms;

// ta[r*4 + q] = A[row0+r, k0+4q .. k0+4q+3]; tb[q*BN4 + j] = B[k0+q, col0+4j .. col0+4j+3].
var<workgroup> ta: array<vec4<f32>, TAN>;
var<workgroup> tb: array<vec4<f32>, TBN>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) g: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>, @builtin(local_invocation_index) li: u32) {
	let row0 = g.y * BMu;
	let col0 = g.x * BNu;
	let k4 = u.k / 4u;
	let n4 = u.n / 4u;
ACCS	for (var k0 = 0u; k0 < u.k; k0 += 16u) {
		for (var s = 0u; s < TA4u; s += 1u) {
			let e = li + s * 256u;
			ta[e] = a[(row0 + e / 4u) * k4 + k0 / 4u + e % 4u];
		}
		for (var s = 0u; s < TB4u; s += 1u) {
			let e = li + s * 256u;
			tb[e] = b[(k0 + e / BN4u) * n4 + col0 / 4u + e % BN4u];
		}
		workgroupBarrier();
		for (var q = 0u; q < 4u; q += 1u) {
LOADS			for (var i = 0u; i < TMu; i += 1u) {
				let av = ta[(l.y * TMu + i) * 4u + q];
FMAS			}
		}
		workgroupBarrier();
	}
	for (var i = 0u; i < TMu; i += 1u) {
		let o = (row0 + l.y * TMu + i) * n4 + col0 / 4u + l.x;
STORES	}
}
`
