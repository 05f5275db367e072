package emit_test

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/internal/gobuild"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// module returns a small module: a plain kernel with buffers and scalars
// and length bounds of one scalar and of a product,
// a kernel on a struct buffer with shared memory and a declared wave width,
// a template of a member and a refused member.
func module() (*ir.Module, []emit.Lowered) {
	particle := &ir.Struct{Name: "Particle", Fields: []ir.Field{{Name: "X", Type: ir.F32Type}, {Name: "Hits", Type: ir.U32Type}}}
	saxpy := &ir.Kernel{
		Name: "Saxpy", Func: "Saxpy", Block: [3]uint32{256, 1, 1},
		Params: []*ir.Param{
			{Name: "y", Kind: ir.BufferParam, Type: ir.F32Type, Access: schema.AccessReadWrite, Binding: 0, MinLen: []string{"n"}},
			{Name: "x", Kind: ir.BufferParam, Type: ir.F32Type, Access: schema.AccessRead, Binding: 1, MinLen: []string{"n", "n"}},
			{Name: "a", Kind: ir.ScalarParam, Type: ir.F32Type, Binding: 0},
			{Name: "n", Kind: ir.ScalarParam, Type: ir.U32Type, Binding: 4},
		},
	}
	step := &ir.Kernel{
		Name: "Step", Func: "Step", Block: [3]uint32{8, 8, 1}, Wave: 32,
		Params: []*ir.Param{
			{Name: "s", Kind: ir.BufferParam, Type: particle, Access: schema.AccessAtomic, AtomicElem: ir.U32Type, Binding: 0},
			{Name: "groups", Kind: ir.ScalarParam, Type: ir.I32Type, Binding: 0},
		},
		Shared:  []*ir.Shared{{Name: "tile", Elem: ir.F32Type, Len: 64}},
		Structs: []*ir.Struct{particle},
	}
	scale2 := &ir.Kernel{
		Name: "Scale2", Func: "Scale", Instance: "Scale2", Comptime: "ScaleParams{Factor: 2}", Block: [3]uint32{64, 1, 1},
		Params: []*ir.Param{{Name: "y", Kind: ir.BufferParam, Type: ir.I32Type, Access: schema.AccessWrite}},
	}
	m := &ir.Module{
		Package: "example.com/k", Name: "k",
		Kernels: []*ir.Kernel{saxpy, step, scale2},
		Refused: []*ir.Refusal{{Name: "ScaleNeg", Reason: "[xpu-requires] member ScaleNeg: requires c.Factor > 0 is false",
			Comptime: "ScaleParams{Factor: -1}"}},
		// Its members in //xpu:instance order, which is not the file's.
		Templates: []*ir.Template{{Name: "Scale", Members: []string{"ScaleNeg", "Scale2"}, Param: "c", ParamType: "ScaleParams"}},
	}
	web := schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL, PrivateBytes: new(4), NativeOps: []string{"min"}}
	native, emulated := web, web
	native.WaveTier, emulated.WaveTier, emulated.Fault = schema.TierNative, schema.TierEmulated, true
	return m, []emit.Lowered{
		{Kernel: saxpy, Artifacts: []schema.Artifact{
			{Manifest: web, Code: "@compute @workgroup_size(256, 1, 1)\nfn main() {}\n"},
			{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo, NativeOps: []string{"xpu.Sqrt"}},
				Code: "// saxpyCPU runs one block of Saxpy.\nfunc saxpyCPU(b *gpuimpl.CPUBlock) {\n\t_ = b\n}\n"},
			{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetLLVMHost},
				Selector: schema.Selector{ISA: "x86-64-v3"}, Symbol: "xpu_Saxpy", Code: "; the LLVM IR of Saxpy\n"},
		}},
		{Kernel: step, Artifacts: []schema.Artifact{
			{Manifest: native, Selector: schema.Selector{SubgroupMin: 32, SubgroupMax: 32, Width: 32}, Code: "// a `quoted` WGSL\n"},
			{Manifest: emulated, Selector: schema.Selector{Width: 32}, Code: "// emulated\n"},
		}, Refused: map[emit.Form]string{{Backend: schema.BackendCPU, Target: schema.TargetGo}: "k.go:3:4: [xpu-cpu-lowering] kernel Step: a reason"}},
		{Kernel: scale2, Artifacts: []schema.Artifact{{Manifest: web, Code: "fn main() {}\n"}}},
	}
}

func TestFileGolden(t *testing.T) {
	m, ks := module()
	got, err := emit.File(m, ks)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "module.golden")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("generated file differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

// TestFileBuilds builds the golden file in the package testdata/k, which
// declares the module's struct and kernels, with the files that declare
// its libraries: on this machine's architecture, whose build embeds them,
// and on wasm, whose build declares them empty.
func TestFileBuilds(t *testing.T) {
	m, ks := module()
	src, err := emit.File(m, ks)
	if err != nil {
		t.Fatal(err)
	}
	libs, err := emit.LibraryFiles(m, ks)
	if err != nil {
		t.Fatal(err)
	}
	if len(libs) != 2 || libs[emit.NativeFile] == nil || libs[emit.PortableFile] == nil {
		t.Fatalf("library files %v, want %s and %s", slices.Sorted(maps.Keys(libs)), emit.NativeFile, emit.PortableFile)
	}
	k := filepath.Join("testdata", "k")
	files := map[string][]byte{filepath.Join(k, emit.FileName): src}
	for name, src := range libs {
		files[filepath.Join(k, name)] = src
	}
	for i := range ks[0].Artifacts {
		if a := &ks[0].Artifacts[i]; a.Target.Native() {
			files[filepath.Join(k, emit.LibraryFile(a))] = []byte("a library")
		}
	}
	if err := gobuild.Check(t.TempDir(), files, "./testdata/k"); err != nil {
		t.Error(err)
	}
	t.Setenv("GOOS", "js")
	t.Setenv("GOARCH", "wasm")
	if err := gobuild.Check(t.TempDir(), files, "./testdata/k"); err != nil {
		t.Errorf("GOOS=js GOARCH=wasm: %v", err)
	}
}

// TestLibraryFiles: the native file embeds each library under the
// architectures that load native code, the portable one declares the
// same variables without embedding anything, and a package without
// native code gets neither.
func TestLibraryFiles(t *testing.T) {
	m, ks := module()
	libs, err := emit.LibraryFiles(m, ks)
	if err != nil {
		t.Fatal(err)
	}
	native, portable := string(libs[emit.NativeFile]), string(libs[emit.PortableFile])
	for _, want := range []string{"//go:build amd64 || arm64\n", "import _ \"embed\"", "//go:embed xpu_gen_llvm-host_x86-64-v3.so\nvar libLLVMHOSTX8664V3 string\n"} {
		if !strings.Contains(native, want) {
			t.Errorf("%s does not hold %q:\n%s", emit.NativeFile, want, native)
		}
	}
	for _, want := range []string{"//go:build !(amd64 || arm64)\n", "var libLLVMHOSTX8664V3 string\n"} {
		if !strings.Contains(portable, want) {
			t.Errorf("%s does not hold %q:\n%s", emit.PortableFile, want, portable)
		}
	}
	if strings.Contains(portable, "embed") {
		t.Errorf("%s embeds:\n%s", emit.PortableFile, portable)
	}
	for _, l := range ks {
		l.Artifacts = slices.DeleteFunc(slices.Clone(l.Artifacts), func(a schema.Artifact) bool { return a.Target.Native() })
		libs, err := emit.LibraryFiles(m, []emit.Lowered{l})
		if err != nil || libs != nil {
			t.Errorf("kernel %s without native artifacts: %d library files, %v", l.Kernel.Name, len(libs), err)
		}
	}
}

func TestFileDeterministic(t *testing.T) {
	m, ks := module()
	first, err := emit.File(m, ks)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(ks)
	slices.Reverse(m.Kernels)
	second, err := emit.File(m, ks)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Error("the generated file depends on the order of the kernels")
	}
}

func TestFileImportsOnlyXPUGPUAndGPUImpl(t *testing.T) {
	m, ks := module()
	src, err := emit.File(m, ks)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(src, []byte(emit.Header+"\n")) {
		t.Errorf("the file does not start with %q", emit.Header)
	}
	f, err := parser.ParseFile(token.NewFileSet(), emit.FileName, src, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	// embed, for the native libraries beside the file.
	allowed := []string{"embed", "github.com/goxpu/xpu", "github.com/goxpu/xpu/gpu", "github.com/goxpu/xpu/gpu/gpuimpl"}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !slices.Contains(allowed, path) {
			t.Errorf("generated file imports %s", path)
		}
	}
}

func TestFileRejectsDuplicateNames(t *testing.T) {
	m, ks := module()
	m.Refused = append(m.Refused, &ir.Refusal{Name: "Saxpy", Reason: "twice"})
	if _, err := emit.File(m, ks); err == nil {
		t.Error("two kernels named Saxpy: no error")
	}
}

// TestFileRejectsBadTemplates: a template whose members are not the
// module's kernels, each once, is a bug of the front end, which File
// says rather than write a file that does not build.
func TestFileRejectsBadTemplates(t *testing.T) {
	for _, c := range []struct {
		name      string
		templates []*ir.Template
		want      string
	}{
		{"unknown member", []*ir.Template{{Name: "Scale", Members: []string{"Scale2", "Scale9"}}},
			"member Scale9 of the template Scale is no kernel of the module"},
		{"member twice", []*ir.Template{{Name: "Scale", Members: []string{"Scale2"}}, {Name: "Twin", Members: []string{"Scale2"}}},
			"Scale2 is a member of the templates Scale and Twin"},
		{"no members", []*ir.Template{{Name: "Scale"}}, "template Scale has no members"},
	} {
		m, ks := module()
		m.Templates = c.templates
		if _, err := emit.File(m, ks); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// TestDeclaresTemplates: the package's own code may name a template's
// handle before the file exists.
func TestDeclaresTemplates(t *testing.T) {
	m, _ := module()
	if got := emit.Declares(m); !slices.Contains(got, "ScaleTemplate") {
		t.Errorf("Declares = %v, without ScaleTemplate", got)
	}
}

// TestLibraryFileNames: the native file embeds each library from the
// file LibraryFile names, which IsLibraryFile recognizes as the
// generator's, as it does the two Go files that declare the libraries.
func TestLibraryFileNames(t *testing.T) {
	_, ks := module()
	if got, want := emit.LibraryFile(&ks[0].Artifacts[2]), "xpu_gen_llvm-host_x86-64-v3.so"; got != want {
		t.Fatalf("LibraryFile = %q, want %q", got, want)
	}
	for _, name := range []string{"xpu_gen_llvm-host_x86-64-v3.so", "xpu_gen_ptx_sm_80.ptx", "xpu_gen_hsaco_gfx90a.hsaco", emit.NativeFile, emit.PortableFile} {
		if !emit.IsLibraryFile(name) {
			t.Errorf("IsLibraryFile(%q) = false", name)
		}
	}
	for _, name := range []string{"xpu_gen.go", "xpu_gen_llvm-host_.so", "xpu_gen_llvm-host_v3.go", "xpu_gen_wgsl_x.so", "my_xpu_gen_llvm-host_v3.so"} {
		if emit.IsLibraryFile(name) {
			t.Errorf("IsLibraryFile(%q) = true", name)
		}
	}
}
