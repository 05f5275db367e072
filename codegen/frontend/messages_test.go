package frontend

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestMessagesBesideTypeErrors checks the refusals of code that also has
// a Go type error (the generator runs the front end before it reports
// type errors, so its refusal is what the user reads first): each must
// name the cause, not a rule the code did not break.
func TestMessagesBesideTypeErrors(t *testing.T) {
	cases := []struct{ body, want string }{
		{`xpu.WaveSun(t, y[0])`, "[xpu-unsupported] xpu.WaveSun is undefined: package xpu has no WaveSun; did you mean xpu.WaveSum?"},
		{`xpu.Nothing()`, "[xpu-unsupported] xpu.Nothing is undefined"},
		{`_ = xpu.Sqrtt`, "[xpu-unsupported] xpu.Sqrtt is undefined: package xpu has no Sqrtt; did you mean xpu.Sqrt?"},
		{`undefinedFunc(1)`, "[xpu-unsupported] undefinedFunc is undefined"},
		{`xpu.AtomicAdd(&y[0], 1)`, "[xpu-unsupported] xpu.AtomicAdd on a float32; use xpu.AtomicAddFloat32(&buf[i], v)"},
		{`xpu.AtomicMax(&y[0], 1)`, "[xpu-unsupported] xpu.AtomicMax on a float32; atomics on float32 are xpu.AtomicAddFloat32"},
		{`var f float32 = 1e39; y[0] = f`, "[xpu-const-overflow] constant 1e+39 overflows float32"},
		{`xpu.AtomicAdd(&b[0], 1)`, "[xpu-narrow-place] xpu.AtomicAdd on uint8 elements: atomics act on 32-bit words; keep the values an atomic touches in a []uint32 or []int32"},
		{`xpu.AtomicMax(&h[1], 1)`, "[xpu-narrow-place] xpu.AtomicMax on int16 elements: atomics act on 32-bit words"},
		{`xpu.AtomicExchange(&f16[2], 0)`, "[xpu-narrow-place] xpu.AtomicExchange on xpu.Float16 elements"},
	}
	for _, c := range cases {
		src := "package k\n\nimport \"github.com/goxpu/xpu\"\n\n//xpu:kernel block=64\nfunc K(t xpu.Thread, y []float32, b []uint8, h []int16, f16 []xpu.Float16) {\n\t" + c.body + "\n}\n"
		got := checkTolerant(t, src)
		if !strings.Contains(got, c.want) {
			t.Errorf("%s:\ngot  %s\nwant %s", c.body, got, c.want)
		}
		if strings.Contains(got, "[xpu-no-closure]") || strings.Contains(got, "[xpu-no-64bit]") {
			t.Errorf("%s: a refusal for a rule the code keeps: %s", c.body, got)
		}
	}
}

// checkTolerant type-checks src, keeping on past its type errors as the
// generator's loader does, and returns Check's refusals.
func checkTolerant(t *testing.T, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "k.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := newInfo()
	conf := types.Config{Importer: testImporter{}, GoVersion: "go1.26", Error: func(error) {}}
	pkg, _ := conf.Check("k", fset, []*ast.File{f}, info)
	_, err = Check(fset, []*ast.File{f}, pkg, info)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Check: %v, want refusals", err)
	}
	return err.Error()
}
