package codegen_test

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen"
	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/internal/gobuild"
)

// TestEveryGeneratedFileBuilds generates the file of every kernel package
// the tests of the generator use (its test data, the command's) and
// builds and vets each package with it: a generation that succeeds must
// write a file that builds. The build gates are demoted so that kernels
// without CPU code are built too. The module's kernel packages build with
// their committed files, which TestGeneratedFilesAreCurrent (or the test
// command's go generate step) keeps current.
func TestEveryGeneratedFileBuilds(t *testing.T) {
	t.Setenv(codegen.GatesEnv, "warn")
	dirs, _ := filepath.Glob("testdata/*")
	cmd, _ := filepath.Glob("../cmd/xpu/testdata/*")
	dirs = append(dirs, cmd...)
	files := map[string][]byte{}
	var pkgs []string
	for _, dir := range dirs {
		r, src, err := codegen.Build(dir)
		if err != nil {
			t.Logf("%s: refused (its own test checks the errors)", dir)
			continue
		}
		if r.Empty {
			continue
		}
		files[r.Path] = src
		for name, lib := range r.Libraries {
			files[filepath.Join(dir, name)] = lib
		}
		pkgs = append(pkgs, "./"+filepath.ToSlash(dir))
	}
	if len(pkgs) < 3 {
		t.Fatalf("only %d packages generated: %v", len(pkgs), pkgs)
	}
	if err := gobuild.Check(t.TempDir(), files, pkgs...); err != nil {
		t.Error(err)
	}
}

// TestGeneratedNamesAreFree generates a package that declares the names
// the generated file would take by default (its WGSL constants, its CPU
// functions, the import names xpu and gpu; one in a test file of the
// package), and kernels whose names differ
// by case only: the file picks other names for what is its own, declares
// none of the package's, and none twice (TestEveryGeneratedFileBuilds
// builds it).
func TestGeneratedNamesAreFree(t *testing.T) {
	r, src, err := codegen.Build(filepath.Join("testdata", "names"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), r.Path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	user := []string{"gpu", "xpu", "gpuimpl", "fooWGSL", "fooCPU", "barCPU", "wavyWGSLEmulated", "close", "Pair", "Foo", "foo", "Bar", "Wavy"}
	var declared []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			declared = append(declared, d.Name.Name)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						declared = append(declared, n.Name)
					}
				case *ast.ImportSpec:
					if sp.Name == nil {
						t.Errorf("import %s under its own name, which the package declares", sp.Path.Value)
					} else {
						declared = append(declared, sp.Name.Name)
					}
				}
			}
		}
	}
	for i, n := range declared {
		if slices.Contains(user, n) || slices.Contains(declared[:i], n) {
			t.Errorf("the generated file declares %s, which is taken", n)
		}
	}
	for _, want := range []string{"FooKernel", "LaunchFoo", "fooKernel", "launchFoo", "BarKernel", "LaunchBar"} {
		if !slices.Contains(declared, want) {
			t.Errorf("the generated file does not declare %s (declares %v)", want, declared)
		}
	}
	if !bytes.Contains(src, []byte("return s1.Launch(BarKernel, groups1, arg0, s, groups)")) {
		t.Errorf("LaunchBar's parameters hide its handle or each other:\n%s", src)
	}
}

// TestStaleGeneratedFileIgnored generates a package over a generated
// file of an earlier run that declares a name the package has since taken
// in a file that sorts after it (so that the type checker blames the
// package's file): the generator does not read its previous output.
func TestStaleGeneratedFileIgnored(t *testing.T) {
	dir := filepath.Join("testdata", "names")
	path := filepath.Join(dir, emit.FileName)
	t.Cleanup(func() { os.Remove(path) })
	stale := emit.Header + "\n\npackage names\n\nconst fooWGSL = `old`\n\nvar FooKernel = undefinedByNow\n"
	if err := os.WriteFile(path, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := codegen.Build(dir); err != nil {
		t.Errorf("Build over a stale generated file: %v", err)
	}
}

// TestGeneratedNameCollisionRefused checks the packages that declare a
// name their generated file needs: a kernel's handle or launcher or a
// template's handle or launcher (taken by a declaration or by another's API), a name
// Go predeclares that the file uses, a struct type that a local of the
// CPU code hides. Each is refused by name at its declaration, and nothing
// is written.
func TestGeneratedNameCollisionRefused(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want []string
	}{
		{"namesclash", []string{
			"k.go:13:6: [xpu-generated-name] FooKernel is the handle of the kernel Foo (k.go:10:6); rename this declaration or the kernel",
			"k.go:16:7: [xpu-generated-name] LaunchBaz is the launcher of the kernel Baz",
			"k.go:27:6: [xpu-generated-name] LaunchQuxKernel is the launcher of the kernel QuxKernel (k.go:27:6) and the handle of the kernel LaunchQux (k.go:24:6); rename one of the kernels",
			"k.go:33:5: [xpu-generated-name] ScaleTemplate is the handle of the template Scale (k.go:37:6); rename this declaration or the template",
			"k.go:44:6: [xpu-generated-name] LaunchWideTemplate is the handle of the template LaunchWide (k.go:44:6) and the launcher of the kernel WideTemplate (k.go:47:6); rename the kernel or the template",
			"k.go:54:6: [xpu-generated-name] LaunchSelf is the launcher of the template Self (k.go:54:6) and the launcher of the kernel Self (k.go:54:6); rename the kernel or the template",
		}},
		{"shadowed", []string{
			"k.go:9:6: [xpu-generated-name] error is predeclared by Go, and the generated file uses it as Go's own; rename this declaration",
			"k.go:12:6: [xpu-generated-name] b is a struct type of the kernels and the name of a local of their CPU code; rename this declaration",
		}},
	} {
		dir := filepath.Join("testdata", c.dir)
		_, err := codegen.Run(dir)
		if !errors.Is(err, emit.ErrGeneratedName) {
			t.Errorf("%s: err = %v, want one wrapping emit.ErrGeneratedName", c.dir, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error\n%v\ndoes not say\n%s", c.dir, err, w)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, emit.FileName)); !os.IsNotExist(err) {
			t.Errorf("%s: generated file written for a refused package (stat: %v)", c.dir, err)
		}
	}
}

// TestNoKernelsNoFile checks that a package without kernels gets no
// generated file, that one an earlier generation wrote is removed, and
// that a file of that name the generator did not write is left alone and
// named.
func TestNoKernelsNoFile(t *testing.T) {
	dir := filepath.Join("testdata", "nokernels")
	path := filepath.Join(dir, emit.FileName)
	t.Cleanup(func() { os.Remove(path) })
	r, err := codegen.Run(dir)
	if err != nil || !r.Empty || r.Removed {
		t.Fatalf("Run = %+v, %v; want an empty report", r, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a file written for a package without kernels (stat: %v)", err)
	}
	stale := emit.Header + "\n\npackage nokernels\n\nvar OldKernel = 1\n"
	if err := os.WriteFile(path, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := codegen.Run(dir); err != nil || !r.Removed {
		t.Errorf("Run over a stale file = %+v, %v; want it removed", r, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the stale generated file is still there (stat: %v)", err)
	}
	if err := os.WriteFile(path, []byte("package nokernels\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := codegen.Run(dir); err == nil || !strings.Contains(err.Error(), "not written by xpu gen") {
		t.Errorf("Run over a file of the package's own: err = %v, want one naming it", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the package's own file was removed: %v", err)
	}
}
