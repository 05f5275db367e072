//go:build linux && (amd64 || arm64)

package hip

// This file builds the fake runtime library (testdata/fakehip.c), once
// per test process (nativetest.Fake), and binds the functions by which a
// test sets its device's facts; and it builds the suite's code objects
// (testdata/suite.ll) with the LLVM 19 tools, once per processor and
// wave size.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/gpu/internal/native/nativetest"
	"github.com/goxpu/xpu/schema"
)

var fake struct {
	lib nativetest.Fake

	setAttr    func(id, v int32)
	setName    func(name string)
	setArch    func(arch string)
	setMemory  func(n uint64)
	liveAllocs func() int64
}

// fakeLibrary returns the path of the fake library, building it first;
// it skips t where gcc is missing.
func fakeLibrary(t testing.TB) string {
	t.Helper()
	return fake.lib.Build(t, "testdata/fakehip.c", "libamdhip64.so", func(path string) error {
		lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			return err
		}
		purego.RegisterLibFunc(&fake.setAttr, lib, "fake_set_attr")
		purego.RegisterLibFunc(&fake.setName, lib, "fake_set_name")
		purego.RegisterLibFunc(&fake.setArch, lib, "fake_set_arch")
		purego.RegisterLibFunc(&fake.setMemory, lib, "fake_set_memory")
		purego.RegisterLibFunc(&fake.liveAllocs, lib, "fake_live_allocs")
		return nil
	})
}

// objects are the suite's code objects built so far, by processor and
// wave size.
var objects struct {
	sync.Mutex
	m map[string]string
}

// requires reports whether XPU_REQUIRE's comma list names name.
func requires(name string) bool {
	for _, n := range strings.Split(os.Getenv("XPU_REQUIRE"), ",") {
		if strings.TrimSpace(n) == name {
			return true
		}
	}
	return false
}

// suiteObject returns the code object of testdata/suite.ll for isa at
// wave, building it the first time; it skips t without the LLVM 19 tools
// unless XPU_REQUIRE names llvm-host.
func suiteObject(t testing.TB, isa string, wave uint32) string {
	t.Helper()
	tools, err := sidecar.Find(context.Background())
	if errors.Is(err, sidecar.ErrNotFound) && !requires("llvm-host") {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprintf("%s/%d", isa, wave)
	objects.Lock()
	defer objects.Unlock()
	if obj, ok := objects.m[key]; ok {
		return obj
	}
	dir := t.TempDir()
	o, so := filepath.Join(dir, "suite.o"), filepath.Join(dir, "suite.so")
	if out, err := exec.Command(tools.Llc, "-O3", "-mtriple="+schema.HSACOTriple, "-mcpu="+isa, fmt.Sprintf("-mattr=+wavefrontsize%d", wave),
		"-filetype=obj", "-o", o, "testdata/suite.ll").CombinedOutput(); err != nil {
		t.Fatalf("llc: %v\n%s", err, out)
	}
	if out, err := exec.Command(tools.Lld, "-shared", "-o", so, o).CombinedOutput(); err != nil {
		t.Fatalf("ld.lld: %v\n%s", err, out)
	}
	obj, err := os.ReadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	if objects.m == nil {
		objects.m = map[string]string{}
	}
	objects.m[key] = string(obj)
	return string(obj)
}

// hsacoCode is the artifact list of a kernel whose entry sym is in the
// code object code, built for isa at wave.
func hsacoCode(code, sym, isa string, wave uint32) []schema.Artifact {
	return []schema.Artifact{{
		Manifest: schema.Manifest{Backend: schema.BackendHIP, Target: schema.TargetHSACO},
		Selector: schema.Selector{ISA: isa, Width: wave},
		Code:     code,
		Symbol:   sym,
	}}
}

func TestMain(m *testing.M) {
	code := m.Run()
	fake.lib.Remove()
	os.Exit(code)
}

// unsafePointer is the address a C function writes its answer to.
func unsafePointer[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
