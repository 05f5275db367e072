package gpu

import (
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// TestProduct checks the product of a length bound's factors where the
// launch tests cannot reach: int32 factors, a negative one (no bound), a
// zero after an overflow (a product of zero) and an overflow that leaves
// zero in 64 bits.
func TestProduct(t *testing.T) {
	i32, u32 := schema.TypeName{Name: "int32"}, schema.TypeName{Name: "uint32"}
	k := &Kernel{spec: driver.Kernel{Params: []schema.Param{
		{Name: "m", Kind: schema.ParamScalar, Type: i32, Size: 4},
		{Name: "n", Kind: schema.ParamScalar, Type: u32, Size: 4, Binding: 4},
		{Name: "k", Kind: schema.ParamScalar, Type: u32, Size: 4, Binding: 8},
	}}}
	for _, c := range []struct {
		factors  []string
		args     []any
		need     uint64
		over, ok bool
	}{
		{[]string{"m"}, []any{int32(7), uint32(0), uint32(0)}, 7, false, true},
		{[]string{"m", "n"}, []any{int32(7), uint32(1 << 31), uint32(0)}, 7 << 31, false, true},
		{[]string{"m", "n"}, []any{int32(-1), uint32(5), uint32(0)}, 0, false, false},
		{[]string{"n", "m"}, []any{int32(-1), uint32(5), uint32(0)}, 0, false, false},
		{[]string{"n", "n", "n", "k"}, []any{int32(0), uint32(1<<32 - 1), uint32(0)}, 0, false, true},
		{[]string{"n", "n", "k"}, []any{int32(0), uint32(1 << 31), uint32(4)}, 0, true, true},
		{[]string{"n", "x"}, []any{int32(0), uint32(3), uint32(0)}, 0, false, false},
	} {
		need, over, ok := product(k, c.factors, c.args)
		if need != c.need || over != c.over || ok != c.ok {
			t.Errorf("product %v of %v = %d, %v, %v; want %d, %v, %v", c.factors, c.args, need, over, ok, c.need, c.over, c.ok)
		}
	}
}
