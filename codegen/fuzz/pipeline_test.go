package fuzz

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/goxpu/xpu/codegen"
	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

func TestMain(m *testing.M) {
	if name := os.Getenv(serveEnv); name != "" {
		os.Exit(serve(name))
	}
	os.Exit(m.Run())
}

// kernelPath is the import path the fuzzed kernel package is checked as.
const kernelPath = "example.com/k"

// The packages a kernel source or its generated file may import, as
// go/packages loads them (export data of the real packages), once.
var imports struct {
	once sync.Once
	pkgs map[string]*types.Package
	err  error
}

type importer struct{}

func (importer) Import(path string) (*types.Package, error) {
	imports.once.Do(func() {
		cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes}
		// embed: the generated file embeds the native libraries.
		pkgs, err := packages.Load(cfg, "github.com/goxpu/xpu", "github.com/goxpu/xpu/gpu", "github.com/goxpu/xpu/gpu/gpuimpl", "math", "math/bits", "embed")
		if err != nil {
			imports.err = err
			return
		}
		imports.pkgs = make(map[string]*types.Package)
		for _, p := range pkgs {
			if len(p.Errors) > 0 {
				imports.err = p.Errors[0]
				return
			}
			imports.pkgs[p.PkgPath] = p.Types
		}
	})
	if imports.err != nil {
		return nil, imports.err
	}
	if p := imports.pkgs[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("package %q is not available to fuzzed kernels", path)
}

// typeCheck parses and type-checks the Go files srcs as the package
// kernelPath, with the maps the front end reads.
func typeCheck(srcs ...[]byte) (*token.FileSet, []*ast.File, *types.Package, *types.Info, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	for i, src := range srcs {
		f, err := parser.ParseFile(fset, fmt.Sprintf("k%d.go", i), src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Implicits:  make(map[ast.Node]types.Object),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
		Instances:  make(map[*ast.Ident]types.Instance),
		Scopes:     make(map[ast.Node]*types.Scope),
	}
	conf := types.Config{Importer: importer{}, GoVersion: "go1.26"}
	pkg, err := conf.Check(kernelPath, fset, files, info)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return fset, files, pkg, info, nil
}

// checkPipeline runs src through the whole generator. A source that is not
// a type-correct Go file, or that the front end refuses, is skipped (the
// front end's own fuzz target checks its refusals), unless strict: the
// source is then [Source]'s, which writes only valid kernels, and its
// refusal is a failure (of the generator or of the front end). For every
// kernel the front end accepts, each later stage must either carry it or
// refuse it with a named rule; the generated file must type-check with the
// kernel's source; and every WGSL compiler must build each WGSL module
// into a compute pipeline.
func checkPipeline(t *testing.T, src []byte, strict bool) {
	fset, files, pkg, info, err := typeCheck(src)
	if err != nil {
		if strict {
			t.Fatalf("the generated kernel does not type-check: %v\n%s", err, numbered(src))
		}
		t.Skip()
	}
	m, err := frontend.Check(fset, files, pkg, info)
	if err != nil {
		if strict {
			t.Fatalf("the front end refuses the generated kernel: %v\n%s", err, numbered(src))
		}
		t.Skip(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the kernel source:\n%s", numbered(src))
		}
	})
	ks, err := codegen.Lower(m)
	if err != nil {
		for _, e := range leaves(err) {
			if !named(e) {
				t.Errorf("a lowering failed without a named rule: %v", e)
			}
		}
	}
	if len(ks) == 0 {
		return
	}
	gen, err := emit.File(m, ks)
	if err != nil {
		for _, e := range leaves(err) {
			if !named(e) {
				t.Errorf("emit failed without a named rule: %v", e)
			}
		}
		return
	}
	libs, err := emit.LibraryFiles(m, ks)
	if err != nil {
		t.Fatalf("emit wrote the file but not the files of its libraries: %v", err)
	}
	// The portable file declares what the native one embeds, importing
	// nothing.
	srcs := [][]byte{src, gen}
	if libs != nil {
		srcs = append(srcs, libs[emit.PortableFile])
	}
	if _, _, _, _, err := typeCheck(srcs...); err != nil {
		finding(t, fmt.Sprintf("the generated file does not type-check: %v", err), numbered(gen))
	}
	logged := false
	for i := range ks {
		ms, err := modules(&ks[i])
		if err != nil {
			t.Fatalf("emit wrote the file but not the spec of %s: %v", ks[i].Kernel.Name, err)
		}
		for _, r := range ms {
			// Per module: a compiler that crashed on the last one
			// restarts.
			cs, notes, err := available()
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range notes {
				if !logged {
					t.Log(n)
				}
			}
			logged = true
			for _, c := range cs {
				if r.wave && !c.hello.Subgroups {
					continue
				}
				if err := c.compile(r.request); err != nil {
					finding(t, fmt.Sprintf("%s refuses the WGSL of %s: %v", c.name, r.Name, err), numbered([]byte(r.WGSL)))
				}
			}
		}
	}
}

// knownEnv holds a regular expression that names failures already known
// (say, while their fix is under way): a finding whose message matches it
// is logged, not failed, so that a fuzzing campaign goes on past them.
const knownEnv = "XPU_FUZZ_KNOWN"

var known = sync.OnceValue(func() *regexp.Regexp {
	if s := os.Getenv(knownEnv); s != "" {
		return regexp.MustCompile(s)
	}
	return nil
})

// finding fails t with msg and the text it is about, unless msg is known.
func finding(t *testing.T, msg, text string) {
	t.Helper()
	if k := known(); k != nil && k.MatchString(msg) {
		t.Logf("known (%s): %.300s", knownEnv, msg)
		return
	}
	t.Errorf("%s\n%s", msg, text)
}

// leaves splits err into the errors errors.Join and the lowerings joined.
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var es []error
		for _, e := range j.Unwrap() {
			es = append(es, leaves(e)...)
		}
		return es
	}
	if u := errors.Unwrap(err); u != nil {
		if _, ok := u.(interface{ Unwrap() []error }); ok {
			return leaves(u)
		}
	}
	return []error{err}
}

// named reports whether err is a refusal by a rule of the language: it
// names an xpu rule, and not the rule that reports malformed IR (a front
// end bug).
func named(err error) bool {
	s := err.Error()
	return strings.Contains(s, "[xpu-") && !strings.Contains(s, "[xpu-ir]")
}

// module is one WGSL module of a kernel to compile: its artifact for any
// device, or a wave tier's (which only a device with subgroups can
// compile).
type module struct {
	request
	wave bool
}

// modules returns the WGSL modules of l with the layout the runtime binds
// them with.
func modules(l *emit.Lowered) ([]module, error) {
	k := l.Kernel
	// The uniform block's size as the generated spec says it.
	s, err := emit.Spec(kernelPath, l)
	if err != nil {
		return nil, err
	}
	base := request{Name: k.Name, UniformSize: s.UniformSize}
	for _, p := range k.Params {
		dp := schema.Param{Name: p.Name, Kind: schema.ParamScalar, Binding: p.Binding}
		if p.Kind == ir.BufferParam {
			dp.Kind, dp.Access = schema.ParamBuffer, p.Access
		}
		base.Params = append(base.Params, dp)
	}
	var ms []module
	for _, a := range l.Artifacts {
		if a.Target != schema.TargetWGSL {
			continue
		}
		r := base
		if a.Selector.SubgroupMin != 0 {
			r.Name = k.Name + " (" + string(a.WaveTier) + " tier)"
		}
		r.WGSL, r.Fault, r.Words = a.Code, a.Fault, a.Words
		ms = append(ms, module{request: r, wave: a.Selector.SubgroupMin != 0})
	}
	return ms, nil
}

// numbered returns src with line numbers, for a failure's message.
func numbered(src []byte) string {
	var b strings.Builder
	for i, line := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, line)
	}
	return b.String()
}
