package conformance_test

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/goxpu/xpu/kernels/conformance"
)

// TestGenericMembers checks what the handles of generic kernels carry:
// the instantiated Go function for the reference runner, a comptime value
// only where the kernel has a comptime parameter, and no template family.
func TestGenericMembers(t *testing.T) {
	for _, c := range []struct {
		name     string
		fn       any
		comptime any
		got      func() (any, any, string)
	}{
		{"BlockSumU32", conformance.BlockSum[uint32], nil, func() (any, any, string) {
			k := conformance.BlockSumU32Kernel
			return k.Spec().Func, k.Comptime(), k.Template()
		}},
		{"ScaleByF32", conformance.ScaleBy[float32], conformance.Affine{Factor: 2, Offset: 1}, func() (any, any, string) {
			k := conformance.ScaleByF32Kernel
			return k.Spec().Func, k.Comptime(), k.Template()
		}},
	} {
		fn, ct, tmpl := c.got()
		if reflect.TypeOf(fn) != reflect.TypeOf(c.fn) || funcName(fn) != funcName(c.fn) {
			t.Errorf("%s: Func is %s, a %T; want the instantiation %s", c.name, funcName(fn), fn, funcName(c.fn))
		}
		if ct != c.comptime || tmpl != "" {
			t.Errorf("%s: Comptime() = %#v, Template() = %q; want %#v and none", c.name, ct, tmpl, c.comptime)
		}
	}
}

// funcName returns the name of the function fn, type arguments included.
func funcName(fn any) string {
	if f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()); f != nil {
		return f.Name()
	}
	return ""
}
