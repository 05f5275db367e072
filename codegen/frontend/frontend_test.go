package frontend

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

const saxpy = `package k

import "github.com/goxpu/xpu"

// Saxpy computes y = a*x + y.
//
//xpu:kernel block=256
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}
`

func TestSaxpy(t *testing.T) {
	m, err := checkSource(t, saxpy)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Kernels) != 1 {
		t.Fatalf("got %d kernels", len(m.Kernels))
	}
	k := m.Kernels[0]
	if k.Name != "Saxpy" || k.Block != [3]uint32{256, 1, 1} {
		t.Errorf("kernel %s block %v", k.Name, k.Block)
	}
	want := []struct {
		name    string
		kind    ir.ParamKind
		binding int
		access  schema.Access
	}{
		{"y", ir.BufferParam, 0, schema.AccessReadWrite},
		{"x", ir.BufferParam, 1, schema.AccessRead},
		{"a", ir.ScalarParam, 0, schema.AccessNone},
		{"n", ir.ScalarParam, 4, schema.AccessNone},
	}
	if len(k.Params) != len(want) {
		t.Fatalf("got %d params", len(k.Params))
	}
	for i, w := range want {
		p := k.Params[i]
		if p.Name != w.name || p.Kind != w.kind || p.Binding != w.binding || p.Access != w.access {
			t.Errorf("param %d = %+v, want %+v", i, p, w)
		}
	}
}

const features = `package k

import "github.com/goxpu/xpu"

type Pair struct{ A, B float32 }

type Cfg struct{ Tile int }

const N = 64

func sum(s []float32, t xpu.Thread) float32 {
	acc := float32(0)
	for i := range uint32(N) {
		acc += s[i]
	}
	t.Barrier()
	return acc
}

func sq(x float32) float32 { return x * x }

// Reduce exercises shared memory, barriers and device functions.
//
//xpu:kernel block=64
func Reduce(t xpu.Thread, out []float32, in []Pair, hist []uint32, n uint32) {
	s := xpu.Shared[float32](t, N)
	i := t.GlobalX()
	var v float32
	if i < n {
		v = sq(in[i].A) + in[i].B
	}
	s[t.LocalX()] = v
	t.Barrier()
	total := sum(s, t)
	if t.LocalX() == 0 {
		out[t.GroupX()] = total
	}
	xpu.AtomicAdd(&hist[uint32(v)%uint32(len(hist))], 1)
	switch {
	case v > 1:
		v = 1
	case v < 0:
		v = 0
	default:
		v = xpu.Sqrt(v)
	}
	var acc [4]float32
	for j := int32(0); j < 4; j++ {
		acc[j] += v
	}
	a, b := acc[0], acc[1]
	a, b = b, a
	out[0] = min(a, b, 2)
}

// Tile is a template.
//
//xpu:kernel block=16,16
//xpu:instance Tile8 Cfg{Tile: 8}
//xpu:instance Tile64 Cfg{Tile: 64}
//xpu:requires c.Tile*c.Tile <= 1024
func Tile(t xpu.Thread, c Cfg, y []float32) {
	s := xpu.Shared[float32](t, c.Tile*c.Tile)
	s[t.LocalIndex()] = float32(c.Tile)
	t.Barrier()
	y[t.GlobalX()] = s[0]
}
`

func TestFeatures(t *testing.T) {
	m, err := checkSource(t, features)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range m.Kernels {
		t.Logf("%s", dump(k))
	}
	if len(m.Kernels) != 2 || m.Kernels[1].Name != "Tile8" {
		t.Fatalf("kernels: %d", len(m.Kernels))
	}
	if len(m.Refused) != 1 || m.Refused[0].Reason != "[xpu-requires] Tile64: requires c.Tile*c.Tile <= 1024 is false" {
		t.Fatalf("refused: %+v", m.Refused)
	}
	// The refused member keeps its comptime value, and the template its
	// members in //xpu:instance order, the refused one included.
	if got := m.Refused[0].Comptime; got != "Cfg{Tile: 64}" {
		t.Errorf("refused member's comptime %q", got)
	}
	if len(m.Templates) != 1 || m.Templates[0].Name != "Tile" || !slices.Equal(m.Templates[0].Members, []string{"Tile8", "Tile64"}) {
		t.Errorf("templates: %+v", m.Templates)
	}
	if got := m.Kernels[1].Shared[0].Len; got != 64 {
		t.Errorf("Tile8 shared len %d", got)
	}
	r := m.Kernels[0]
	if r.Params[2].Access != schema.AccessAtomic || r.Params[2].AtomicElem != ir.U32Type {
		t.Errorf("hist: %v %v", r.Params[2].Access, r.Params[2].AtomicElem)
	}
	// The function that reaches a barrier is inlined (ir.Flatten): the
	// body holds its barrier, and the function without one stays.
	if len(r.Funcs) != 1 || r.Funcs[0].Barrier {
		t.Errorf("funcs: %d", len(r.Funcs))
	}
	barrier := false
	ir.WalkStmts(r.Body, func(s ir.Stmt) bool {
		_, ok := s.(*ir.Barrier)
		barrier = barrier || ok
		return true
	})
	if !barrier {
		t.Error("the inlined function's barrier is not in the kernel body")
	}
}

func TestLoad(t *testing.T) {
	m, err := Load("testdata/load", Generated{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "load" || len(m.Kernels) != 1 || m.Kernels[0].Name != "Saxpy" {
		t.Fatalf("module %s with %d kernels", m.Name, len(m.Kernels))
	}
	k := m.Kernels[0]
	if len(k.Funcs) != 1 || k.Funcs[0].Name != "scale" {
		t.Errorf("funcs: %d", len(k.Funcs))
	}
	if k.Pos.File != "kernel.go" || k.Pos.Line != 9 || k.Pos.Col != 6 {
		t.Errorf("kernel position %v", k.Pos)
	}
}

// TestTypeCheckReportsGeneratedFileErrors checks the guard the generator
// runs before it writes a file: an error in the file is reported, with
// its place; the package's own files are not blamed on it.
func TestTypeCheckReportsGeneratedFileErrors(t *testing.T) {
	if err := TypeCheck("testdata/load", map[string][]byte{"xpu_gen.go": []byte("package load\n\nvar ok = 1\n")}); err != nil {
		t.Errorf("a file that type-checks: %v", err)
	}
	err := TypeCheck("testdata/load", map[string][]byte{"xpu_gen.go": []byte("package load\n\nvar _ int = \"s\"\n")})
	if err == nil || !strings.Contains(err.Error(), "xpu_gen.go:3:") {
		t.Errorf("a file that does not type-check: err = %v, want one at xpu_gen.go:3", err)
	}
	// Two files checked together: one uses what the other declares, and
	// an error in either is reported.
	files := map[string][]byte{
		"xpu_gen.go":        []byte("package load\n\nvar uses = lib\n"),
		"xpu_gen_native.go": []byte("package load\n\nvar lib string\n"),
	}
	if err := TypeCheck("testdata/load", files); err != nil {
		t.Errorf("two files that type-check together: %v", err)
	}
	files["xpu_gen_native.go"] = []byte("package load\n\nvar lib int = \"s\"\n")
	if err := TypeCheck("testdata/load", files); err == nil || !strings.Contains(err.Error(), "xpu_gen_native.go:3:") {
		t.Errorf("an error in the second file: err = %v, want one at xpu_gen_native.go:3", err)
	}
}

const lengthBounds = `package k

import "github.com/goxpu/xpu"

//xpu:kernel block=64 len(C)=m*n len(y)=n len(D)=m*n*m
func Bounded(t xpu.Thread, C, y, D, free []float32, m int32, n uint32) {}
`

// TestLengthBounds checks that each len(buffer)= bound reaches its
// buffer parameter as the list of its factors, and that an unbounded
// buffer has none.
func TestLengthBounds(t *testing.T) {
	m, err := checkSource(t, lengthBounds)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"C": {"m", "n"}, "y": {"n"}, "D": {"m", "n", "m"}}
	for _, p := range m.Kernels[0].Params {
		if !slices.Equal(p.MinLen, want[p.Name]) || (p.MinLen == nil) != (want[p.Name] == nil) {
			t.Errorf("parameter %s: MinLen %q, want %q", p.Name, p.MinLen, want[p.Name])
		}
	}
}

const lowering = `package k

import "github.com/goxpu/xpu"

func get(b []float32, i uint32) float32 { return b[i] }

//xpu:kernel block=64
func L(t xpu.Thread, y, x []float32, n uint32, m int32) {
	a := get(y, 0) + get(x, 1) + get(y, 2)
	n++
	for i := range n {
		i += 2
		y[i] = a
	}
	var k uint32
	for k = range 4 {
	}
	y[3] = float32(k)
	j := uint32(0)
	j, y[j] = 1, 2
	y[t.GlobalX()+uint32(m)] += 1
	switch t.LocalX() {
	case 0:
		y[1] = 1
	case 1, 2:
		y[2] = 2
	}
}
`

func TestLowering(t *testing.T) {
	m, err := checkSource(t, lowering)
	if err != nil {
		t.Fatal(err)
	}
	k := m.Kernels[0]
	got := dump(k)
	t.Log(got)
	if len(k.Funcs) != 2 || k.Funcs[0].Name != "get" || k.Funcs[1].Name != "get_1" {
		t.Errorf("want get specialized for y and x, got %d funcs", len(k.Funcs))
	}
	for _, want := range []string{
		"var n_1 uint32 = $n",  // an assigned uniform becomes a local
		"var tmp uint32 = n_1", // range n evaluates n once
		"var i_1 uint32 = i",   // the key is a copy when the body assigns it
		"k = i_2",              // range with =
		"var tmp_1 uint32 = j\n\tj = uint32(1)\n\t@y[tmp_1] = f32(0x40000000)", // j, y[j] = 1, 2 indexes with the old j
		"@y[(GlobalX() + uint32($m))] = (@y[",                                  // op-assign
		"if ((tmp_2 == uint32(1)) || (tmp_2 == uint32(2)))",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("IR lacks %q", want)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	_, err := checkSource(t, `package k

import "github.com/goxpu/xpu"

//xpu:kernel block=64
func K(t xpu.Thread, y []float32) {
	go K(t, y)
	var m map[int32]int32
	_ = m
}
`)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("want 2 errors, got %v", err)
	}
	want := "k.go:7:2: [xpu-no-goroutine] go statement; launch more work-items instead of starting goroutines"
	if list[0].Error() != want {
		t.Errorf("got  %s\nwant %s", list[0], want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Rule != string(RuleNoGoroutine) {
		t.Errorf("errors.As: %v", e)
	}
}

func TestPlainRequires(t *testing.T) {
	m, err := checkSource(t, `package k

import "github.com/goxpu/xpu"

const M = 3

//xpu:kernel block=4
//xpu:requires M > 5
func R(t xpu.Thread) {}
`)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Kernels) != 0 || len(m.Refused) != 1 || m.Refused[0].Reason != "[xpu-requires] R: requires M > 5 is false" {
		t.Errorf("kernels %d, refused %+v", len(m.Kernels), m.Refused)
	}
}

// TestTemplateShape checks that each member of a template evaluates the
// block and wave width of //xpu:kernel from its comptime value, and that
// an if over a comptime field compiles only the branch the member takes.
func TestTemplateShape(t *testing.T) {
	m, err := checkSource(t, `package k

import "github.com/goxpu/xpu"

type Width struct{ W, Block uint32 }

const Wide = 64

//xpu:kernel block=c.Block,2 wave=c.W
//xpu:instance Narrow Width{W: 8, Block: 20}
//xpu:instance Broad Width{W: Wide, Block: Wide+32}
func Shaped(t xpu.Thread, c Width, y []uint32) {
	b := uint32(0)
	if c.W <= 32 {
		b = xpu.WaveBallot(t, y[t.GlobalX()] > 0)
	}
	y[t.GlobalX()] = b
}

//xpu:kernel block=Wide wave=Wide/2
func Plain(t xpu.Thread, y []uint32) {
	s := xpu.WaveSum(t, y[t.GlobalX()])
	y[t.GlobalX()] = s
}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		block [3]uint32
		wave  uint32
	}{
		"Narrow": {[3]uint32{20, 2, 1}, 8},
		"Broad":  {[3]uint32{96, 2, 1}, 64},
		"Plain":  {[3]uint32{64, 1, 1}, 32},
	}
	if len(m.Kernels) != len(want) {
		t.Fatalf("got %d kernels, want %d", len(m.Kernels), len(want))
	}
	for _, k := range m.Kernels {
		w, ok := want[k.Name]
		if !ok || k.Block != w.block || k.Wave != w.wave {
			t.Errorf("%s: block %v wave %d, want %v", k.Name, k.Block, k.Wave, w)
		}
	}
}
