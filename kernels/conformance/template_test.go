package conformance_test

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/conformance"
)

// instance is one //xpu:instance line: a member's name and its comptime
// literal.
type instance struct {
	name, src string
	lit       *ast.CompositeLit
}

// instances reads the //xpu:instance lines of the kernel fn in the
// package's source file, in their order.
func instances(t *testing.T, file, fn string) []instance {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var out []instance
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != fn || fd.Doc == nil {
			continue
		}
		for _, c := range fd.Doc.List {
			rest, ok := strings.CutPrefix(c.Text, "//xpu:instance ")
			if !ok {
				continue
			}
			name, src, _ := strings.Cut(rest, " ")
			e, err := parser.ParseExpr(src)
			lit, isLit := e.(*ast.CompositeLit)
			if err != nil || !isLit {
				t.Fatalf("%s: instance %s: %q is no composite literal (%v)", file, name, src, err)
			}
			out = append(out, instance{name, src, lit})
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no //xpu:instance lines on %s", file, fn)
	}
	return out
}

// value evaluates lit, a literal of typ's struct type with keyed fields of
// integer constants, independently of the generator: each field's value
// by go/types, the rest zero.
func value(t *testing.T, lit *ast.CompositeLit, typ reflect.Type) any {
	t.Helper()
	v := reflect.New(typ).Elem()
	for _, el := range lit.Elts {
		kv := el.(*ast.KeyValueExpr)
		key := kv.Key.(*ast.Ident).Name
		tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, types.ExprString(kv.Value))
		if err != nil || tv.Value == nil {
			t.Fatalf("field %s: %s is no constant (%v)", key, types.ExprString(kv.Value), err)
		}
		n, exact := constant.Int64Val(tv.Value)
		if !exact {
			t.Fatalf("field %s: %v is no int64", key, tv.Value)
		}
		v.FieldByName(key).SetInt(n)
	}
	return v.Interface()
}

// TestScaleTemplate checks the registered template Scale against its
// source: its members in the order of the //xpu:instance lines, the
// refused one included, each with the comptime value of its line.
func TestScaleTemplate(t *testing.T) {
	const prefix = "github.com/goxpu/xpu/kernels/conformance."
	tmpl, ok := gpu.LookupTemplate(prefix + "Scale")
	if !ok || tmpl != conformance.ScaleTemplate {
		t.Fatalf("LookupTemplate(Scale) = %p, %v; want ScaleTemplate %p", tmpl, ok, conformance.ScaleTemplate)
	}
	if r := tmpl.Refused(); r != "" {
		t.Fatalf("the template is refused: %s", r)
	}
	want := instances(t, "template.go", "Scale")
	members := tmpl.Members()
	if len(members) != len(want) {
		t.Fatalf("%d members, want %d, one per //xpu:instance line", len(members), len(want))
	}
	typ := reflect.TypeFor[conformance.ScaleParams]()
	for i, k := range members {
		in := want[i]
		if k.Name() != prefix+in.name {
			t.Errorf("member %d is %s, want %s", i, k.Name(), prefix+in.name)
			continue
		}
		if got, want := k.Comptime(), value(t, in.lit, typ); got != want {
			t.Errorf("%s: Comptime() = %#v, want %#v (%s)", in.name, got, want, in.src)
		}
		if k.Template() != tmpl.Name() {
			t.Errorf("%s: Template() = %q, want %q", in.name, k.Template(), tmpl.Name())
		}
		// ScaleNeg's factor is not positive: its requires clause fails.
		if refused := k.Refused() != ""; refused != (k.Comptime().(conformance.ScaleParams).Factor <= 0) {
			t.Errorf("%s: Refused() = %q for the factor %d", in.name, k.Refused(), k.Comptime().(conformance.ScaleParams).Factor)
		}
	}
	// Every kernel of the package with a ScaleParams value is a member
	// (the generic ScaleBy's members, of other types, are in no family).
	for _, k := range gpu.Kernels() {
		if strings.HasPrefix(k.Name(), prefix) && reflect.TypeOf(k.Comptime()) == typ && k.Template() != tmpl.Name() {
			t.Errorf("%s has a comptime value and is no member of Scale (Template() = %q)", k.Name(), k.Template())
		}
	}
}
