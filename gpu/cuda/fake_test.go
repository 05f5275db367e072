//go:build linux && (amd64 || arm64)

package cuda

// This file builds the fake driver library (testdata/fakecuda.c), once
// per test process (nativetest.Fake), and binds the functions by which a
// test sets its device's facts.

import (
	"os"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/gpu/internal/native/nativetest"
)

var fake struct {
	lib nativetest.Fake

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
	return fake.lib.Build(t, "testdata/fakecuda.c", "libcuda.so.1", func(path string) error {
		lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err != nil {
			return err
		}
		purego.RegisterLibFunc(&fake.setAttr, lib, "fake_set_attr")
		purego.RegisterLibFunc(&fake.setName, lib, "fake_set_name")
		purego.RegisterLibFunc(&fake.setMemory, lib, "fake_set_memory")
		purego.RegisterLibFunc(&fake.liveAllocs, lib, "fake_live_allocs")
		purego.RegisterLibFunc(&fake.retains, lib, "fake_retains")
		return nil
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	fake.lib.Remove()
	os.Exit(code)
}

// unsafePointer is the address a C function writes its answer to.
func unsafePointer[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
