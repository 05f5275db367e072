package frontend

import (
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
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
		access  ir.Access
	}{
		{"y", ir.BufferParam, 0, ir.AccessReadWrite},
		{"x", ir.BufferParam, 1, ir.AccessRead},
		{"a", ir.ScalarParam, 0, ir.AccessNone},
		{"n", ir.ScalarParam, 4, ir.AccessNone},
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
	if got := m.Kernels[1].Shared[0].Len; got != 64 {
		t.Errorf("Tile8 shared len %d", got)
	}
	r := m.Kernels[0]
	if r.Params[2].Access != ir.AccessAtomic || r.Params[2].AtomicElem != ir.U32Type {
		t.Errorf("hist: %v %v", r.Params[2].Access, r.Params[2].AtomicElem)
	}
	if len(r.Funcs) != 2 || !r.Funcs[1].Barrier && !r.Funcs[0].Barrier {
		t.Errorf("funcs: %d", len(r.Funcs))
	}
}
