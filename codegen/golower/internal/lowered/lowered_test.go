package lowered

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/cpu"
	"github.com/goxpu/xpu/gpu/driver"
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
	k := &driver.Kernel{Name: "lowered.test", Block: block, CPU: fn, UniformSize: len(uniforms)}
	var dbufs []driver.Buffer
	for _, b := range bufs {
		k.Params = append(k.Params, driver.Param{Kind: driver.ParamBuffer})
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
	if err := q.Launch(p, groups, dbufs, uniforms); err != nil {
		return nil, err
	}
	if err := q.Sync(); err != nil {
		return nil, err
	}
	out := make([][]byte, len(dbufs))
	for i, db := range dbufs {
		out[i] = make([]byte, db.Size())
		if err := db.Read(0, out[i]); err != nil {
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
