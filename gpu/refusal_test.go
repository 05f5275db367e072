package gpu_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gpuimpl"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// One test per reason a launch or a buffer call is refused: each returns
// an error wrapping its sentinel, naming the kernel and the parameter.

// wantRefusal fails t unless err wraps sentinel and mentions each of words.
func wantRefusal(t *testing.T, err, sentinel error, words ...string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("error %v, want one wrapping %v", err, sentinel)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

var refusedKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:    "github.com/goxpu/xpu/gpu_test.Refused[N=3]",
	Block:   xpu.Dim3{X: 64},
	Refused: "requires N%2 == 0",
})

var invalidKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.Invalid",
	Block: xpu.Dim3{X: 64},
	Params: []schema.Param{
		{Name: "a", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "float32"}, Size: 4, Binding: 16},
	},
	UniformSize: 16,
})

var hugeBlockKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:   "github.com/goxpu/xpu/gpu_test.HugeBlock",
	Block:  xpu.Dim3{X: 1 << 16},
	Params: []schema.Param{{Name: "y", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: schema.AccessWrite}},
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: "@compute @workgroup_size(1) fn main() {}"},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: func(*gpuimpl.CPUBlock) {}},
	},
})

var hugeSharedKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:        "github.com/goxpu/xpu/gpu_test.HugeShared",
	Block:       xpu.Dim3{X: 64},
	SharedBytes: 1 << 30,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: "@compute @workgroup_size(64) fn main() {}"},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: func(*gpuimpl.CPUBlock) {}},
	},
})

var badWGSLKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.BadWGSL",
	Block: xpu.Dim3{X: 64},
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: "@compute @workgroup_size(64) fn main() { let x: u32 = 1.5; }"},
	},
})

func TestRefusedSpec(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		err := d.Stream().Launch(refusedKernel, xpu.Dim3{X: 1})
		wantRefusal(t, err, gpu.ErrRefused, refusedKernel.Name(), "requires N%2 == 0")
		if refusedKernel.Refused() == "" {
			t.Error("Refused() is empty for a refused kernel")
		}
	})
}

func TestNotRegistered(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		wantRefusal(t, d.Stream().Launch(new(gpu.Kernel), xpu.Dim3{X: 1}), gpu.ErrRefused, "no code registered")
		wantRefusal(t, d.Stream().Launch(nil, xpu.Dim3{X: 1}), gpu.ErrRefused, "nil kernel")
	})
}

func TestInvalidSpec(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		err := d.Stream().Launch(invalidKernel, xpu.Dim3{X: 1}, float32(1))
		wantRefusal(t, err, gpu.ErrRefused, invalidKernel.Name(), "parameter a", "uniform offset 16")
	})
}

func TestRegisteredTwice(t *testing.T) {
	again := gpuimpl.Register(saxpyKernel.Spec())
	if again == saxpyKernel || again.Refused() == "" {
		t.Fatalf("a second registration under %s is not refused", saxpyKernel.Name())
	}
	if k, _ := gpu.Lookup(saxpyKernel.Name()); k != saxpyKernel {
		t.Fatal("a second registration replaced the first")
	}
}

func TestArgCount(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y := newBuf[float32](t, d, 64)
		err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, y, float32(1))
		wantRefusal(t, err, gpu.ErrArgs, saxpyKernel.Name(), "4 arguments, got 3")
	})
}

func TestArgBufferType(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y := newBuf[float32](t, d, 64)
		xi := newBuf[int32](t, d, 64)
		err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, xi, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrArgs, saxpyKernel.Name(), "parameter x", "Buffer[int32]")
		err = d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, []float32{1}, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrArgs, "parameter x", "[]float32")
		err = d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, (*gpu.Buffer[float32])(nil), float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrArgs, "parameter x", "nil")
	})
}

// foreignStep is stepKernel's spec with its particles typed as a
// Particle of another package of the same name: a buffer of this
// package's Particle must not bind to it.
var foreignStep = func() *gpu.Kernel {
	s := stepKernel.Spec()
	s.Name = "github.com/goxpu/xpu/gpu_test.ForeignStep"
	s.Params[0].Type = schema.TypeName{Pkg: "example.com/other/gpu_test", Name: "Particle"}
	return gpuimpl.Register(s)
}()

func TestArgBufferTypeOfAnotherPackage(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		ps := newBuf[Particle](t, d, 32)
		err := d.Stream().Launch(foreignStep, xpu.Dim3{X: 1}, ps, float32(1), uint32(32))
		wantRefusal(t, err, gpu.ErrArgs, "parameter ps", "example.com/other/gpu_test.Particle", "github.com/goxpu/xpu/gpu_test.Particle")
		if err := d.Stream().Launch(stepKernel, xpu.Dim3{X: 1}, ps, float32(1), uint32(32)); err != nil {
			t.Fatalf("the kernel of this package's Particle refuses it: %v", err)
		}
	})
}

func TestArgScalarType(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := newBuf[float32](t, d, 64), newBuf[float32](t, d, 64)
		err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, 1.0, uint32(64))
		wantRefusal(t, err, gpu.ErrArgs, "parameter a", "float64")
		err = d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), 64)
		wantRefusal(t, err, gpu.ErrArgs, "parameter n", "int")
		type myUint uint32
		err = d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), myUint(64))
		wantRefusal(t, err, gpu.ErrArgs, "parameter n", "myUint")
	})
}

func TestAliasedWrite(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y := newBuf[float32](t, d, 64)
		err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, y, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrArgs, "parameter x", "parameter y")
	})
}

func TestForeignBuffer(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		other, err := gpu.OpenBackend(d.Backend())
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		y := newBuf[float32](t, d, 64)
		x, err := gpu.NewBuffer[float32](other, 64)
		if err != nil {
			t.Fatal(err)
		}
		err = d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrForeignBuffer, saxpyKernel.Name(), "parameter x")
	})
}

func TestReleasedBuffer(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y := newBuf[float32](t, d, 64)
		x := newBuf[float32](t, d, 64)
		x.Release()
		x.Release() // idempotent
		err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrReleased, saxpyKernel.Name(), "parameter x")
		wantRefusal(t, x.Write(make([]float32, 64)), gpu.ErrReleased)
		_, err = x.Download()
		wantRefusal(t, err, gpu.ErrReleased)
	})
}

func TestGrid(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := newBuf[float32](t, d, 64), newBuf[float32](t, d, 64)
		err := d.Stream().Launch(saxpyKernel, xpu.Dim3{}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrGrid, saxpyKernel.Name(), "empty grid")
		m := d.Info().Limits.MaxGroups
		if m == 0 || m == ^uint32(0) {
			t.Skipf("the device reports no grid limit")
		}
		err = d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1, Y: m + 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrGrid, saxpyKernel.Name())
	})
}

func TestLimits(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		lim := d.Info().Limits
		if lim.MaxInvocationsPerBlock == 0 || lim.MaxSharedBytes == 0 {
			t.Skipf("the device reports no block or shared limits")
		}
		y := newBuf[float32](t, d, 64)
		wantRefusal(t, d.Stream().Launch(hugeBlockKernel, xpu.Dim3{X: 1}, y), gpu.ErrLimits, hugeBlockKernel.Name(), "threads per block")
		wantRefusal(t, d.Stream().Launch(hugeSharedKernel, xpu.Dim3{X: 1}), gpu.ErrLimits, hugeSharedKernel.Name(), "shared bytes")
	})
}

func TestCompileError(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		err := d.Stream().Launch(badWGSLKernel, xpu.Dim3{X: 1})
		sentinel := gpu.ErrCompile
		if d.Backend() == "cpu" {
			sentinel = gpu.ErrNoCode // the spec has WGSL only
		}
		wantRefusal(t, err, sentinel, badWGSLKernel.Name())
		// The failure is cached: the second launch says the same.
		err2 := d.Stream().Launch(badWGSLKernel, xpu.Dim3{X: 1})
		if err2 == nil || err2.Error() != err.Error() {
			t.Fatalf("second launch: %v, first: %v", err2, err)
		}
		// The device still works.
		y, x := newBuf[float32](t, d, 64), newBuf[float32](t, d, 64)
		if err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64)); err != nil {
			t.Fatal(err)
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestElementType(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		_, err := gpu.NewBuffer[int64](d, 4)
		wantRefusal(t, err, gpu.ErrType, "int64")
		_, err = gpu.NewBuffer[struct{ A float64 }](d, 4)
		wantRefusal(t, err, gpu.ErrType, "field A")
		_, err = gpu.Upload(d, []bool{true})
		wantRefusal(t, err, gpu.ErrType, "bool")
		type vec struct {
			P [3]float32
			N uint32
		}
		b, err := gpu.NewBuffer[vec](d, 4)
		if err != nil {
			t.Fatal(err)
		}
		b.Release()
		// A narrow integer is an element of its own, not a part of one.
		_, err = gpu.NewBuffer[struct{ A, B uint8 }](d, 4)
		wantRefusal(t, err, gpu.ErrType, "field A", "of its own")
	})
}

// TestNarrowBuffers round-trips buffers of 8- and 16-bit elements whose
// byte lengths are no multiple of 4 (WebGPU allocates whole words): Read
// returns exactly the elements written, and Download of a fresh buffer
// zeros.
func TestNarrowBuffers(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, n := range []int{1, 3, 5, 6, 1023} {
			u8 := make([]uint8, n)
			for i := range u8 {
				u8[i] = uint8(r.Uint32())
			}
			roundTrip(t, d, u8)
			i16 := make([]int16, n)
			for i := range i16 {
				i16[i] = int16(r.Uint32())
			}
			roundTrip(t, d, i16)
		}
	})
}

func roundTrip[T comparable](t *testing.T, d *gpu.Device, want []T) {
	t.Helper()
	z, err := gpu.NewBuffer[T](d, len(want))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Release()
	if got, err := z.Download(); err != nil || slices.ContainsFunc(got, func(v T) bool { var zero T; return v != zero }) {
		t.Errorf("a fresh buffer of %d %T: %v, %v, want zeros", len(want), want[0], got, err)
	}
	b, err := gpu.Upload(d, want)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	got := make([]T, len(want))
	if err := b.Read(got); err != nil || !slices.Equal(got, want) {
		t.Errorf("%d %T read back as %v (%v), want %v", len(want), want[0], got, err, want)
	}
}

func TestSizes(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		_, err := gpu.NewBuffer[float32](d, -1)
		wantRefusal(t, err, gpu.ErrSize)
		b := newBuf[float32](t, d, 8)
		wantRefusal(t, b.Write(make([]float32, 7)), gpu.ErrSize, "7")
		wantRefusal(t, b.Read(make([]float32, 9)), gpu.ErrSize, "9")
		e := newBuf[float32](t, d, 0)
		if got, err := e.Download(); err != nil || len(got) != 0 {
			t.Fatalf("empty buffer: %v, %v", got, err)
		}
	})
}

func TestClosed(t *testing.T) {
	for _, name := range gpu.Backends() {
		t.Run(string(name), func(t *testing.T) {
			d, err := gpu.OpenBackend(name)
			if err != nil {
				t.Skip(err)
			}
			y, _ := gpu.NewBuffer[float32](d, 64)
			x, _ := gpu.NewBuffer[float32](d, 64)
			s, err := d.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			if err := d.Close(); err != nil {
				t.Fatal("second Close:", err)
			}
			wantRefusal(t, d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64)), gpu.ErrClosed)
			wantRefusal(t, s.Sync(), gpu.ErrClosed)
			_, err = y.Download()
			wantRefusal(t, err, gpu.ErrClosed)
			_, err = gpu.NewBuffer[float32](d, 1)
			wantRefusal(t, err, gpu.ErrClosed)
			y.Release()
		})
	}
}

func newBuf[T any](t testing.TB, d *gpu.Device, n int) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.NewBuffer[T](d, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}
