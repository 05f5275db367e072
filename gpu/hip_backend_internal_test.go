//go:build linux && (amd64 || arm64)

package gpu

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// fakeHIP builds the hip driver's fake library and points XPU_HIP_LIB at
// it for t, and returns the hip driver's test code object built for the
// fake's device (gfx90a, waves of 64); it skips t without gcc or the
// LLVM 19 tools.
func fakeHIP(t *testing.T) string {
	t.Helper()
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skipf("no gcc to build the fake HIP library: %v", err)
	}
	tools, err := sidecar.Find(context.Background())
	if errors.Is(err, sidecar.ErrNotFound) && !strings.Contains(os.Getenv("XPU_REQUIRE"), "llvm-host") {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libamdhip64.so")
	if out, err := exec.Command(gcc, "-shared", "-fPIC", "-O2", "-o", lib, "hip/testdata/fakehip.c", "-lpthread").CombinedOutput(); err != nil {
		t.Fatalf("building the fake HIP library: %v\n%s", err, out)
	}
	o, so := filepath.Join(dir, "suite.o"), filepath.Join(dir, "suite.so")
	if out, err := exec.Command(tools.Llc, "-O3", "-mtriple="+schema.HSACOTriple, "-mcpu=gfx90a", "-mattr=+wavefrontsize64",
		"-filetype=obj", "-o", o, "hip/testdata/suite.ll").CombinedOutput(); err != nil {
		t.Fatalf("llc: %v\n%s", err, out)
	}
	if out, err := exec.Command(tools.Lld, "-shared", "-o", so, o).CombinedOutput(); err != nil {
		t.Fatalf("ld.lld: %v\n%s", err, out)
	}
	obj, err := os.ReadFile(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XPU_HIP_LIB", lib)
	return string(obj)
}

// hipDivide is out[i] = in[i] / d, whose code object (the hip driver's
// test object) sets the fault word's FaultDivZero where d is 0;
// registered by the first test that needs it, since a name registers
// once.
var hipDivide struct {
	once sync.Once
	k    *Kernel
}

func hipDivideKernel(obj string) *Kernel {
	hipDivide.once.Do(func() {
		u32 := schema.TypeName{Name: "uint32"}
		hipDivide.k = register(&driver.Kernel{
			Name:  "github.com/goxpu/xpu/gpu.hipdivide",
			Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
			Params: []schema.Param{
				{Name: "out", Kind: schema.ParamBuffer, Type: u32, Size: 4, Access: schema.AccessWrite, Binding: 0},
				{Name: "in", Kind: schema.ParamBuffer, Type: u32, Size: 4, Access: schema.AccessRead, Binding: 1},
				{Name: "d", Kind: schema.ParamScalar, Type: u32, Size: 4, Binding: 0},
			},
			UniformSize: 16,
			Func:        func(xpu.Thread, []uint32, []uint32, uint32) {},
			Artifacts: []schema.Artifact{{
				Manifest: schema.Manifest{Backend: schema.BackendHIP, Target: schema.TargetHSACO, Fault: true},
				Selector: schema.Selector{ISA: "gfx90a", Width: 64},
				Code:     obj,
				Symbol:   "divide",
			}},
		})
	})
	return hipDivide.k
}

// TestHIPRegistered checks that the hip backend is compiled in, in
// Open's order after cuda.
func TestHIPRegistered(t *testing.T) {
	b := Backends()
	h, c := slices.Index(b, schema.BackendHIP), slices.Index(b, schema.BackendCUDA)
	if h < 0 || c < 0 || h != c+1 {
		t.Fatalf("backends %v: want hip right after cuda", b)
	}
}

// TestHIPFallsThrough checks that without a runtime library Open passes
// over the hip backend: its error wraps ErrUnavailable, and Open opens
// another.
func TestHIPFallsThrough(t *testing.T) {
	t.Setenv("XPU_HIP_LIB", filepath.Join(t.TempDir(), "libamdhip64.so"))
	t.Setenv("XPU_CUDA_LIB", filepath.Join(t.TempDir(), "libcuda.so.1"))
	t.Setenv("XPU_BACKEND", "")
	if _, err := OpenBackend(schema.BackendHIP); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("hip without its library: %v, want ErrUnavailable", err)
	}
	d, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Backend() == schema.BackendHIP {
		t.Fatal("Open opened hip without its library")
	}
}

// TestHIPFaultAndManifest runs, through the runtime on the fake HIP
// device, a kernel that divides: the quotients of fresh inputs, then,
// with a divisor of 0, a kernel fault naming it at Sync; and the device's
// manifest of it carries the registers and private bytes of its code.
func TestHIPFaultAndManifest(t *testing.T) {
	obj := fakeHIP(t)
	k := hipDivideKernel(obj)
	d, err := OpenBackend(schema.BackendHIP)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m, ok := d.Manifest(k)
	if !ok || m.Registers == nil || *m.Registers == 0 || m.SpillBytes == nil {
		t.Fatalf("device manifest %+v: no registers or private bytes", m)
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
}
