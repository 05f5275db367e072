//go:build linux && (amd64 || arm64)

package gpu

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// divideKernel is out[i] = in[i] / d, whose PTX (the cuda driver's test
// module) sets the fault word's FaultDivZero where d is 0; registered by
// the first test that needs it.
var divideKernel = sync.OnceValues(func() (*Kernel, error) {
	ptx, err := os.ReadFile("cuda/testdata/suite.ptx")
	if err != nil {
		return nil, err
	}
	u32 := schema.TypeName{Name: "uint32"}
	return register(&driver.Kernel{
		Name:  "github.com/goxpu/xpu/gpu.divide",
		Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
		Params: []schema.Param{
			{Name: "out", Kind: schema.ParamBuffer, Type: u32, Size: 4, Access: schema.AccessWrite, Binding: 0},
			{Name: "in", Kind: schema.ParamBuffer, Type: u32, Size: 4, Access: schema.AccessRead, Binding: 1},
			{Name: "d", Kind: schema.ParamScalar, Type: u32, Size: 4, Binding: 0},
		},
		UniformSize: 16,
		Func:        func(xpu.Thread, []uint32, []uint32, uint32) {},
		Artifacts: []schema.Artifact{{
			Manifest: schema.Manifest{Backend: schema.BackendCUDA, Target: schema.TargetPTX, Fault: true},
			Selector: schema.Selector{ISA: "sm_70"},
			Code:     string(ptx),
			Symbol:   "divide",
		}},
	}), nil
})

// fakeCUDA builds the cuda driver's fake library and points XPU_CUDA_LIB
// at it for t; it skips t without gcc.
func fakeCUDA(t *testing.T) {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skipf("no gcc to build the fake CUDA library: %v", err)
	}
	lib := filepath.Join(t.TempDir(), "libcuda.so.1")
	if out, err := exec.Command(gcc, "-shared", "-fPIC", "-O2", "-o", lib, "cuda/testdata/fakecuda.c", "-lpthread").CombinedOutput(); err != nil {
		t.Fatalf("building the fake CUDA library: %v\n%s", err, out)
	}
	t.Setenv("XPU_CUDA_LIB", lib)
}

// TestCUDAFallsThrough checks that without a driver library Open passes
// over the cuda backend: its error wraps ErrUnavailable, and Open opens
// another.
func TestCUDAFallsThrough(t *testing.T) {
	t.Setenv("XPU_CUDA_LIB", filepath.Join(t.TempDir(), "libcuda.so.1"))
	t.Setenv("XPU_BACKEND", "")
	if _, err := OpenBackend(schema.BackendCUDA); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("cuda without its library: %v, want ErrUnavailable", err)
	}
	d, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Backend() == schema.BackendCUDA {
		t.Fatal("Open opened cuda without its library")
	}
}

// TestCUDAFaultAndManifest runs, through the runtime on the fake CUDA
// device, a kernel that divides: the quotients of fresh inputs, then,
// with a divisor of 0, a kernel fault naming it at Sync; and the device's
// manifest of it carries the registers and spills of its compiled code.
func TestCUDAFaultAndManifest(t *testing.T) {
	fakeCUDA(t)
	k, err := divideKernel()
	if err != nil {
		t.Fatal(err)
	}
	d, err := OpenBackend(schema.BackendCUDA)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m, ok := d.Manifest(k)
	if !ok || m.Registers == nil || *m.Registers == 0 || m.SpillBytes == nil {
		t.Fatalf("device manifest %+v: no registers or spills", m)
	}
	if k.spec.Artifacts[0].Registers != nil {
		t.Error("the generated manifest holds registers")
	}
	const n = 300
	src := make([]uint32, n)
	for i := range src {
		src[i] = rand.Uint32()
	}
	out, err := NewBuffer[uint32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	in, err := NewBuffer[uint32](d, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Write(src); err != nil {
		t.Fatal(err)
	}
	s := d.Stream()
	div := 1 + rand.Uint32N(1000)
	if err := s.Launch(k, xpu.Dim3{X: (n + 63) / 64}, out, in, div); err != nil {
		t.Fatal(err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	got, err := out.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if g != src[i]/div {
			t.Fatalf("out[%d] = %d, want %d", i, g, src[i]/div)
		}
	}
	if err := s.Launch(k, xpu.Dim3{X: (n + 63) / 64}, out, in, uint32(0)); err != nil {
		t.Fatal(err)
	}
	err = s.Sync()
	if !errors.Is(err, ErrFault) || !strings.Contains(err.Error(), k.spec.Name) || !strings.Contains(err.Error(), "integer division by zero") {
		t.Fatalf("a division by zero: %v, want a kernel fault naming %s", err, k.spec.Name)
	}
	if err := s.Sync(); err != nil {
		t.Fatalf("the stream kept the fault: %v", err)
	}
}
