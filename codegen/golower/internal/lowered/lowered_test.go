package lowered

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// run launches fn over groups on a fresh CPU device and returns the bytes
// of every buffer after the launch. bufs are the buffers' initial
// contents; uniforms the uniform block.
func run(t *testing.T, fn driver.CPUFunc, block, groups xpu.Dim3, uniforms []byte, bufs ...[]byte) [][]byte {
	t.Helper()
	out, err := launch(fn, block, groups, uniforms, bufs...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// launch is run without a test: it returns the launch's error.
func launch(fn driver.CPUFunc, block, groups xpu.Dim3, uniforms []byte, bufs ...[]byte) ([][]byte, error) {
	d, err := cpu.New(cpu.Config{})
	if err != nil {
		return nil, err
	}
	defer d.Close()
	k := &driver.Kernel{Name: "lowered.test", Block: block, Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: fn},
	},
		UniformSize: len(uniforms)}
	var dbufs []driver.Buffer
	for _, b := range bufs {
		k.Params = append(k.Params, schema.Param{Kind: schema.ParamBuffer})
		db, err := d.NewBuffer(len(b))
		if err != nil {
			return nil, err
		}
		if err := db.Write(0, b); err != nil {
			return nil, err
		}
		dbufs = append(dbufs, db)
	}
	p, err := d.Compile(k)
	if err != nil {
		return nil, err
	}
	q, err := d.NewQueue()
	if err != nil {
		return nil, err
	}
	if err := q.Launch(context.Background(), p, groups, dbufs, uniforms); err != nil {
		return nil, err
	}
	if err := q.Sync(context.Background()); err != nil {
		return nil, err
	}
	out := make([][]byte, len(dbufs))
	for i, db := range dbufs {
		out[i] = make([]byte, db.Size())
		if err := db.Read(context.Background(), 0, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func bytesOf[T float32 | uint32 | int32](v []T) []byte {
	return append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))...)
}

func words(vs ...uint32) []byte {
	b := make([]byte, 16*((4*len(vs)+15)/16))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func randFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return v
}

// poison is the value outputs hold before a launch.
var poison = float32(math.NaN())

func poisoned(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = poison
	}
	return v
}

// exactly compares float results bit for bit: the lowering and the
// reference run the same Go arithmetic in the same order.
func exactly(t *testing.T, what string, got []byte, want []float32) {
	t.Helper()
	g := driver.CPUView[float32](got)
	for i := range want {
		if math.Float32bits(g[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s[%d] = %v, reference %v", what, i, g[i], want[i])
		}
	}
}

func TestSaxpy(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	const n = 1000
	x, y := randFloats(r, n), randFloats(r, n)
	a := r.Float32()
	groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
	out := run(t, saxpyCPU, xpu.Dim3{X: 64}, groups, words(math.Float32bits(a), n), bytesOf(y), bytesOf(x))
	if err := xpu.Run(xpu.Config{Groups: groups, Block: xpu.Dim3{X: 64}}, Saxpy, y, x, a, uint32(n)); err != nil {
		t.Fatal(err)
	}
	exactly(t, "y", out[0], y)
}

func TestBlockSum(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	const groups, live = 40, 33 // blocks from live on return early
	in, out := randFloats(r, 64*groups), poisoned(groups)
	got := run(t, blockSumCPU, xpu.Dim3{X: 64}, xpu.Dim3{X: groups}, words(live), bytesOf(out), bytesOf(in))
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: groups}, Block: xpu.Dim3{X: 64}}, BlockSum, out, in, uint32(live)); err != nil {
		t.Fatal(err)
	}
	exactly(t, "out", got[0], out)
}

func TestGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	const n = 64
	a, b, c := randFloats(r, n*n), randFloats(r, n*n), poisoned(n*n)
	groups := xpu.Dim3{X: n / 16, Y: n / 16}
	got := run(t, gemmCPU, xpu.Dim3{X: 16, Y: 16}, groups, words(n), bytesOf(c), bytesOf(a), bytesOf(b))
	if err := xpu.Run(xpu.Config{Groups: groups, Block: xpu.Dim3{X: 16, Y: 16}}, Gemm, c, a, b, uint32(n)); err != nil {
		t.Fatal(err)
	}
	exactly(t, "c", got[0], c)
}

// TestDot runs the strip dot product's case, and its fallback where a
// buffer is one element short: the launch fails as the loop would, naming
// the fault, instead of reading past the buffer.
func TestDot(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 5))
	for _, m := range []uint32{0, 1, 2, 5, 32} {
		a, b, out := randFloats(r, 2*32), randFloats(r, 8*int(max(m, 1))), poisoned(16)
		got := run(t, dotCPU, xpu.Dim3{X: 8, Y: 2}, xpu.Dim3{X: 1}, words(m), bytesOf(out), bytesOf(a), bytesOf(b))
		if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 8, Y: 2}}, Dot, out, a, b, m); err != nil {
			t.Fatal(err)
		}
		exactly(t, "out", got[0], out)
	}
	a, b := randFloats(r, 2*32), randFloats(r, 8*5-1)
	_, err := launch(dotCPU, xpu.Dim3{X: 8, Y: 2}, xpu.Dim3{X: 1}, words(5), bytesOf(poisoned(16)), bytesOf(a), bytesOf(b))
	if err == nil || !strings.Contains(err.Error(), "index out of range") {
		t.Errorf("a short buffer: err = %v, want an index out of range", err)
	}
}

func TestHistogram(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 4))
	const n = 3000
	in := make([]uint32, n)
	for i := range in {
		in[i] = r.Uint32()
	}
	bins := make([]uint32, 8)
	groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
	got := run(t, histogramCPU, xpu.Dim3{X: 64}, groups, words(n), bytesOf(bins), bytesOf(in))
	if err := xpu.Run(xpu.Config{Groups: groups, Block: xpu.Dim3{X: 64}}, Histogram, bins, in, uint32(n)); err != nil {
		t.Fatal(err)
	}
	for i, v := range driver.CPUView[uint32](got[0]) {
		if v != bins[i] {
			t.Fatalf("bins[%d] = %d, reference %d", i, v, bins[i])
		}
	}
}

// TestConstants checks folding with wrapping: Go itself would refuse
// these constant expressions, so there is no reference function.
func TestConstants(t *testing.T) {
	got := driver.CPUView[int32](run(t, constantsCPU, xpu.Dim3{X: 1}, xpu.Dim3{X: 1}, nil, make([]byte, 16))[0])
	for i, want := range []int32{math.MinInt32, math.MinInt32, -1} {
		if got[i] != want {
			t.Errorf("out[%d] = %d, want %d", i, got[i], want)
		}
	}
}

// TestSaxpyPartialBlocks runs Saxpy's guard (i < n) hoisted out of the
// work-item loop for lengths that end inside, at the edge of and before
// the last block, and for none.
func TestSaxpyPartialBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 6))
	for _, n := range []uint32{0, 1, 63, 64, 65, 127, 640, 1000} {
		x, y := randFloats(r, int(max(n, 1))), randFloats(r, int(max(n, 1)))
		a := r.Float32()
		groups := xpu.Dim3{X: max(xpu.GroupsFor(n, 64), 1)}
		out := run(t, saxpyCPU, xpu.Dim3{X: 64}, groups, words(math.Float32bits(a), n), bytesOf(y), bytesOf(x))
		if err := xpu.Run(xpu.Config{Groups: groups, Block: xpu.Dim3{X: 64}}, Saxpy, y, x, a, n); err != nil {
			t.Fatal(err)
		}
		exactly(t, fmt.Sprintf("n=%d: y", n), out[0], y)
	}
}

// TestGuardFaults checks that the lanes that pass a hoisted guard still
// fault where the kernel would: n reaches past the buffers in the last
// block, which the reference refuses too.
func TestGuardFaults(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	x, y := randFloats(r, 1000), randFloats(r, 1000)
	groups := xpu.Dim3{X: 16}
	_, err := launch(saxpyCPU, xpu.Dim3{X: 64}, groups, words(math.Float32bits(2), 1001), bytesOf(y), bytesOf(x))
	if err == nil || !strings.Contains(err.Error(), "index out of range") {
		t.Errorf("n past the buffers: err = %v, want an index out of range", err)
	}
	if err := xpu.Run(xpu.Config{Groups: groups, Block: xpu.Dim3{X: 64}}, Saxpy, y, x, float32(2), uint32(1001)); err == nil {
		t.Errorf("the reference ran n past the buffers without an error")
	}
}

// TestGuards runs the kernels of guard.go's cases with bounds that no
// lane passes, that every lane passes, that cut a block, and with i+k
// wrapping inside a block (the loop then runs as written), in uint32 and
// int32, against the reference on poisoned outputs.
func TestGuards(t *testing.T) {
	const groups, lanes = 16, 16 * 64
	r := rand.New(rand.NewPCG(rand.Uint64(), 8))
	checkLen := func(name string, fn driver.CPUFunc, n int, k, m uint32, ref func(out, x []float32) error) {
		t.Helper()
		x, out := randFloats(r, n), poisoned(n)
		got := run(t, fn, xpu.Dim3{X: 64}, xpu.Dim3{X: groups}, words(k, m), bytesOf(out), bytesOf(x))
		if err := ref(out, x); err != nil {
			t.Fatal(err)
		}
		exactly(t, fmt.Sprintf("%s k=%#x m=%#x: out", name, k, m), got[0], out)
	}
	check := func(name string, fn driver.CPUFunc, k, m uint32, ref func(out, x []float32) error) {
		t.Helper()
		checkLen(name, fn, lanes, k, m, ref)
	}
	cfg := xpu.Config{Groups: xpu.Dim3{X: groups}, Block: xpu.Dim3{X: 64}}
	unsigned := [][2]uint32{
		{0, 0}, {0, 500}, {0, 511}, {0, 512}, {0, 1023}, {0, math.MaxUint32},
		{1, 0}, {100, 600}, {math.MaxUint32 - 99, 500}, {math.MaxUint32 - 99, math.MaxUint32 - 1},
		{math.MaxUint32 - 1023, math.MaxUint32}, {math.MaxUint32 - 1000, math.MaxUint32 - 40},
	}
	for _, c := range unsigned {
		k, m := c[0], c[1]
		check("Below", belowCPU, k, m, func(out, x []float32) error { return xpu.Run(cfg, Below, out, x, k, m) })
		check("Above", aboveCPU, k, m, func(out, x []float32) error { return xpu.Run(cfg, Above, out, x, k, m) })
	}
	signed := [][2]int32{
		{0, 0}, {0, 500}, {0, 512}, {0, math.MaxInt32}, {0, math.MinInt32},
		{-1000, 0}, {-600, -100}, {math.MinInt32, math.MinInt32 + 300},
		{math.MaxInt32 - 99, 0}, {math.MaxInt32 - 99, math.MinInt32 + 500}, {math.MaxInt32 - 99, math.MaxInt32 - 50},
		{math.MaxInt32 - 1023, math.MaxInt32},
	}
	for _, c := range signed {
		k, m := c[0], c[1]
		check("SignedBelow", signedBelowCPU, uint32(k), uint32(m), func(out, x []float32) error { return xpu.Run(cfg, SignedBelow, out, x, k, m) })
		check("SignedFrom", signedFromCPU, uint32(k), uint32(m), func(out, x []float32) error { return xpu.Run(cfg, SignedFrom, out, x, k, m) })
	}
	// Buffers that end inside the last block: the windows do not fit
	// there, so its passing lanes run through the buffers as written.
	checkLen("Below", belowCPU, 1000, 0, 999, func(out, x []float32) error { return xpu.Run(cfg, Below, out, x, uint32(0), uint32(999)) })
	checkLen("Below", belowCPU, 1000, 5, 1004, func(out, x []float32) error { return xpu.Run(cfg, Below, out, x, uint32(5), uint32(1004)) })
	checkLen("SignedBelow", signedBelowCPU, 1000, uint32(10), 1010, func(out, x []float32) error {
		return xpu.Run(cfg, SignedBelow, out, x, int32(10), int32(1010))
	})
	// A run of lanes to the end of the grid reaches past such buffers:
	// the launch faults, as the reference does.
	for _, c := range []struct {
		name string
		fn   driver.CPUFunc
		ref  any
		k, m any
	}{
		{"Above", aboveCPU, Above, uint32(0), uint32(10)},
		{"SignedFrom", signedFromCPU, SignedFrom, int32(0), int32(10)},
	} {
		x, out := randFloats(r, 1000), poisoned(1000)
		_, err := launch(c.fn, xpu.Dim3{X: 64}, xpu.Dim3{X: groups}, words(0, 10), bytesOf(out), bytesOf(x))
		if err == nil || !strings.Contains(err.Error(), "index out of range") {
			t.Errorf("%s past the buffers: err = %v, want an index out of range", c.name, err)
		}
		if err := xpu.Run(cfg, c.ref, out, x, c.k, c.m); err == nil {
			t.Errorf("%s: the reference ran past the buffers without an error", c.name)
		}
	}
}
