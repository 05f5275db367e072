package codegen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen"
	"github.com/goxpu/xpu/codegen/emit"
)

// generated lists the kernel packages of the module whose generated file
// must match what the generator writes today.
var generated = []string{
	"../kernels/conformance", "../kernels/wave", "../examples/saxpy",
	"../bench/internal/kernels", "golower/internal/fission",
}

// TestGeneratedFilesAreCurrent fails when a generated file has drifted
// from its kernels or from the generator: run go generate. The README's
// test command checks the same of every package (go generate leaves the
// tree unchanged) before it runs the tests, and says so in the
// environment (emit.CheckedEnv): the test then leaves the generation,
// minutes of LLVM, to that step.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	if os.Getenv(emit.CheckedEnv) != "" {
		t.Skipf("%s is set: the test command checked that go generate leaves every generated file as it is", emit.CheckedEnv)
	}
	for _, dir := range generated {
		r, src, err := codegen.Build(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		old, err := os.ReadFile(r.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, src) {
			t.Errorf("%s is stale: run go generate in %s", r.Path, dir)
		}
	}
}

// TestBuildReportsRefusedMembers checks the report of a package with a
// template member that its requires clause refuses: the member, named
// with its clause.
func TestBuildReportsRefusedMembers(t *testing.T) {
	r, _, err := codegen.Build("../cmd/xpu/testdata/scale")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Refused) != 1 || r.Refused[0].Name != "Negate" || !strings.Contains(r.Refused[0].Reason, "c.Factor > 0") {
		t.Errorf("refused = %+v, want Negate with its clause", r.Refused)
	}
	if filepath.Base(r.Path) != "xpu_gen.go" {
		t.Errorf("path = %s", r.Path)
	}
}

// TestRunRefusesBrokenPackage checks that a package the front end refuses
// fails the generation with the rule's name and writes nothing.
func TestRunRefusesBrokenPackage(t *testing.T) {
	dir := filepath.Join("testdata", "nomap")
	err := codegen.Generate(dir)
	if err == nil || !strings.Contains(err.Error(), "[xpu-no-map]") {
		t.Errorf("Generate on a kernel with a map: err = %v, want one naming [xpu-no-map]", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "xpu_gen.go")); !os.IsNotExist(err) {
		t.Errorf("generated file written for a refused package (stat: %v)", err)
	}
}

// TestBuildBeforeTheGeneratedFileExists checks that a package whose code
// uses its launchers generates although they are not yet declared.
func TestBuildBeforeTheGeneratedFileExists(t *testing.T) {
	r, src, err := codegen.Build(filepath.Join("testdata", "usesgen"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Kernels) != 1 || !bytes.Contains(src, []byte("func LaunchFill(")) {
		t.Errorf("kernels = %v; the file must declare LaunchFill", r.Kernels)
	}
}

// TestBuildRefusesOtherTypeErrors checks that a type error the generated
// file would not resolve still fails the generation.
func TestBuildRefusesOtherTypeErrors(t *testing.T) {
	_, _, err := codegen.Build(filepath.Join("testdata", "typo"))
	if err == nil || !strings.Contains(err.Error(), "undefined: LaunchFil") {
		t.Errorf("err = %v, want the undefined LaunchFil", err)
	}
}
