package frontend

import (
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
)

const generic = `package k

import "github.com/goxpu/xpu"

type Num interface{ ~int32 | ~uint32 | ~float32 }

type Tile struct{ N uint32 }

func add[T Num](a, b T) T { return a + b }

func twice[T Num](x T) T { return add(x, x) }

func load[T Num](b []T, i uint32) T { return b[i] }

// Reduce sums in into out[0] per block.
//
//xpu:kernel block=64
//xpu:instance ReduceI32 Reduce[int32]
//xpu:instance ReduceF32 Reduce[float32]
func Reduce[T int32 | uint32 | float32](t xpu.Thread, out, in []T, n uint32) {
	var acc [4]T
	s := T(0)
	for i := t.GlobalX(); i < n; i += 64 {
		s = add(s, load(in, i))
	}
	acc[0] = twice(s)
	out[t.GlobalX()] = acc[0] + 1
}

// Plain calls a generic device function at two types.
//
//xpu:kernel block=64
func Plain(t xpu.Thread, y []float32, z []int32) {
	i := t.GlobalX()
	y[i] = add(y[i], 2)
	z[i] = add[int32](z[i], 3)
}

// Tiled is generic and a template.
//
//xpu:kernel block=c.N
//xpu:instance TiledF32 Tiled[float32] Tile{N: 32}
//xpu:instance TiledU32 Tiled[uint32] Tile{N: 64}
//xpu:requires c.N >= 32
func Tiled[T uint32 | float32](t xpu.Thread, c Tile, y []T) {
	y[t.GlobalX()] = T(c.N)
}
`

func TestGenericKernels(t *testing.T) {
	m, err := checkSource(t, generic)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*ir.Kernel{}
	for _, k := range m.Kernels {
		byName[k.Name] = k
	}
	for _, w := range []struct {
		name, typeArgs string
		elem           ir.Type
		block          uint32
	}{
		{"ReduceI32", "[int32]", ir.I32Type, 64},
		{"ReduceF32", "[float32]", ir.F32Type, 64},
		{"TiledF32", "[float32]", ir.F32Type, 32},
		{"TiledU32", "[uint32]", ir.U32Type, 64},
	} {
		k := byName[w.name]
		if k == nil {
			t.Errorf("no kernel %s", w.name)
			continue
		}
		if k.TypeArgs != w.typeArgs || k.Params[0].Type != w.elem || k.Block[0] != w.block {
			t.Errorf("%s: type args %q, first buffer %v, block %d; want %q, %v, %d", w.name, k.TypeArgs, k.Params[0].Type, k.Block[0], w.typeArgs, w.elem, w.block)
		}
	}
	// Each member instantiates the device functions at its own type:
	// twice[T] calls add[T], so ReduceF32 holds add and twice on f32.
	f32 := dump(byName["ReduceF32"])
	if !strings.Contains(f32, "(a float32, b float32) float32") || !strings.Contains(f32, "(x float32) float32") || strings.Contains(f32, " int32") {
		t.Errorf("ReduceF32's device functions are not on float32:\n%s", f32)
	}
	if !strings.Contains(f32, "return @in[i]") || !strings.Contains(f32, "var acc [4]float32") {
		t.Errorf("ReduceF32's private array is not [4]float32, or load does not read its buffer:\n%s", f32)
	}
	// A plain kernel instantiates add at each type it calls it with.
	plain := dump(byName["Plain"])
	if !strings.Contains(plain, "(a float32, b float32) float32") || !strings.Contains(plain, "(a int32, b int32) int32") {
		t.Errorf("Plain does not hold add at float32 and int32:\n%s", plain)
	}
	// A generic kernel's members differ in type: they are no template
	// family, with or without a comptime parameter.
	if len(m.Templates) != 0 {
		t.Errorf("templates %v, want none", m.Templates)
	}
}
