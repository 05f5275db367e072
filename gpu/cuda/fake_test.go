//go:build linux && (amd64 || arm64)

package cuda

// This file builds the fake driver library (testdata/fakecuda.c) with
// gcc, once per test process, and binds the functions by which a test
// sets its device's facts.

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
)

var fake struct {
	once sync.Once
	dir  string
	path string
	err  error

	setAttr    func(id, v int32)
	setName    func(name string)
	setMemory  func(n uint64)
	liveAllocs func() int64
	retains    func() int32
}

// fakeLibrary returns the path of the fake library, building it first;
// it skips t where gcc is missing.
func fakeLibrary(t testing.TB) string {
	t.Helper()
	fake.once.Do(func() {
		gcc, err := exec.LookPath("gcc")
		if err != nil {
			fake.err = err
			return
		}
		if fake.dir, err = os.MkdirTemp("", "fakecuda"); err != nil {
			fake.err = err
			return
		}
		fake.path = filepath.Join(fake.dir, "libcuda.so.1")
		out, err := exec.Command(gcc, "-shared", "-fPIC", "-O2", "-Wall", "-o", fake.path, "testdata/fakecuda.c", "-lpthread").CombinedOutput()
		if err != nil {
			fake.err = &buildError{err, string(out)}
			return
		}
		lib, err := purego.Dlopen(fake.path, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			fake.err = err
			return
		}
		purego.RegisterLibFunc(&fake.setAttr, lib, "fake_set_attr")
		purego.RegisterLibFunc(&fake.setName, lib, "fake_set_name")
		purego.RegisterLibFunc(&fake.setMemory, lib, "fake_set_memory")
		purego.RegisterLibFunc(&fake.liveAllocs, lib, "fake_live_allocs")
		purego.RegisterLibFunc(&fake.retains, lib, "fake_retains")
	})
	if _, ok := fake.err.(*exec.Error); ok {
		t.Skipf("no gcc to build the fake driver library: %v", fake.err)
	}
	if fake.err != nil {
		t.Fatalf("building the fake driver library: %v", fake.err)
	}
	return fake.path
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func TestMain(m *testing.M) {
	code := m.Run()
	if fake.dir != "" {
		os.RemoveAll(fake.dir)
	}
	os.Exit(code)
}

// unsafePointer is the address a C function writes its answer to.
func unsafePointer[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
