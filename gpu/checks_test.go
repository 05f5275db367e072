package gpu_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gpuimpl"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// One test per refusal reason of issue-level checks beyond refusal_test.go:
// code per backend, availability, wave widths and tiers, pinned blocks,
// deadlines and declared buffer lengths. Each runs on every backend.

// specLike returns a copy of saxpyKernel's spec under a new name, changed
// by edit.
func specLike(name string, edit func(*gpuimpl.KernelSpec)) *gpu.Kernel {
	s := saxpyKernel.Spec()
	s.Name = "github.com/goxpu/xpu/gpu_test." + name
	edit(s)
	return gpuimpl.Register(s)
}

// only keeps the artifacts of s for backend.
func only(s *gpuimpl.KernelSpec, backend schema.Backend) {
	s.Artifacts = slices.DeleteFunc(s.Artifacts, func(a schema.Artifact) bool { return a.Backend != backend })
}

// editManifests changes the manifest of every artifact of s by edit.
func editManifests(s *gpuimpl.KernelSpec, edit func(*schema.Manifest)) {
	for i := range s.Artifacts {
		edit(&s.Artifacts[i].Manifest)
	}
}

var (
	wgslOnlyKernel = specLike("WGSLOnly", func(s *gpuimpl.KernelSpec) { only(s, schema.BackendWebGPU) })
	cpuOnlyKernel  = specLike("CPUOnly", func(s *gpuimpl.KernelSpec) { only(s, schema.BackendCPU) })
	scalarTwin     = specLike("ScalarTwin", func(s *gpuimpl.KernelSpec) {
		s.WaveOps = true
		editManifests(s, func(m *schema.Manifest) { m.WaveTier = schema.TierScalar })
	})
	oddWave    = specLike("OddWave", func(s *gpuimpl.KernelSpec) { s.Wave = 48 })
	nativeWave = specLike("NativeWave", func(s *gpuimpl.KernelSpec) {
		s.Wave, s.WaveOps = 64, true
		editManifests(s, func(m *schema.Manifest) { m.WaveTier = schema.TierNative })
	})
	boundedSaxpy = specLike("BoundedSaxpy", func(s *gpuimpl.KernelSpec) {
		s.Params[0].MinLen, s.Params[1].MinLen = []string{"n"}, []string{"n"}
	})
	badBound = specLike("BadBound", func(s *gpuimpl.KernelSpec) { s.Params[0].MinLen = []string{"a"} })
	// squareSaxpy declares that x holds n*n elements and y n*n*n: products
	// that wrap in 32 bits and, for y, in 64.
	squareSaxpy = specLike("SquareSaxpy", func(s *gpuimpl.KernelSpec) {
		s.Params[0].MinLen, s.Params[1].MinLen = []string{"n", "n", "n"}, []string{"n", "n"}
	})
	badProduct = specLike("BadProduct", func(s *gpuimpl.KernelSpec) { s.Params[1].MinLen = []string{"n", "a"} })
)

// saxpyArgs returns fresh buffers of n elements for saxpyKernel.
func saxpyArgs(t *testing.T, d *gpu.Device, n int) (y, x *gpu.Buffer[float32]) {
	return newBuf[float32](t, d, n), newBuf[float32](t, d, n)
}

func TestNoCodeForBackend(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		lacking := map[schema.Backend]*gpu.Kernel{schema.BackendWebGPU: cpuOnlyKernel, schema.BackendCPU: wgslOnlyKernel}[d.Backend()]
		if lacking == nil {
			t.Skipf("no kernel without code for %s", d.Backend())
		}
		y, x := saxpyArgs(t, d, 64)
		err := d.Stream().Launch(lacking, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrNoCode, lacking.Name(), "no code for the "+string(d.Backend())+" backend")
		ok, err := d.KernelAvailable(lacking)
		if ok {
			t.Fatal("KernelAvailable: true for a kernel without code")
		}
		wantRefusal(t, err, gpu.ErrNoCode, lacking.Name())
	})
}

func TestKernelAvailable(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		if ok, err := d.KernelAvailable(saxpyKernel); !ok || err != nil {
			t.Fatalf("KernelAvailable(%s) = %v, %v", saxpyKernel.Name(), ok, err)
		}
		ok, err := d.KernelAvailable(&gpu.Kernel{})
		if ok {
			t.Fatal("an unregistered kernel is available")
		}
		wantRefusal(t, err, gpu.ErrNoCode, "no code registered")
		ok, err = d.KernelAvailable(nil)
		if ok {
			t.Fatal("a nil kernel is available")
		}
		wantRefusal(t, err, gpu.ErrNoCode, "nil kernel")
		_, err = d.KernelAvailable(refusedKernel)
		wantRefusal(t, err, gpu.ErrNoCode, "requires N%2 == 0")
		if lim := d.Info().Limits; lim.MaxSharedBytes != 0 {
			_, err = d.KernelAvailable(hugeSharedKernel)
			wantRefusal(t, err, gpu.ErrLimits, "shared bytes")
		}
		if lim := d.Info().Limits; lim.MaxInvocationsPerBlock != 0 {
			_, err = d.KernelAvailable(hugeBlockKernel)
			wantRefusal(t, err, gpu.ErrLimits, "threads per block")
		}
		_, err = d.KernelAvailable(scalarTwin)
		wantRefusal(t, err, gpu.ErrScalarTwin)
	})
}

func TestScalarTwinRefused(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := saxpyArgs(t, d, 64)
		err := d.Stream().Launch(scalarTwin, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrScalarTwin, scalarTwin.Name(), "scalar twin")
	})
}

func TestUnsupportedWaveWidth(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := saxpyArgs(t, d, 64)
		err := d.Stream().Launch(oddWave, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrWaveWidth, oddWave.Name(), "wave=48", "power of two")
		lim := d.Info().Limits
		if lim.SubgroupMin <= 64 && 64 <= lim.SubgroupMax {
			t.Skipf("the device runs 64-wide subgroups natively")
		}
		err = d.Stream().Launch(nativeWave, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrWaveWidth, nativeWave.Name(), "wave=64")
	})
}

func TestBlockDiffersFromPinned(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := saxpyArgs(t, d, 64)
		err := d.Stream().LaunchWith(gpu.LaunchOptions{Block: xpu.Dim3{X: 128}}, saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrBlock, saxpyKernel.Name(), "128x1x1", "64x1x1")
		if err := d.Stream().LaunchWith(gpu.LaunchOptions{Block: xpu.Dim3{X: 64}}, saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64)); err != nil {
			t.Fatalf("the pinned block is refused: %v", err)
		}
	})
}

func TestMissedDeadline(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 200
		y0, x0 := randF32s(r, n), randF32s(r, n)
		y, x := upload(t, d, y0), upload(t, d, x0)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, saxpyKernel.Block().X)}

		err := d.Stream().LaunchBy(time.Now().Add(-time.Millisecond), saxpyKernel, groups, y, x, float32(3), uint32(n))
		wantRefusal(t, err, gpu.ErrDeadline, saxpyKernel.Name(), "deadline")
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		err = d.Stream().LaunchContext(ctx, saxpyKernel, groups, y, x, float32(3), uint32(n))
		wantRefusal(t, err, gpu.ErrDeadline, saxpyKernel.Name())
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
		}
		cctx, ccancel := context.WithCancel(context.Background())
		ccancel()
		err = d.Stream().LaunchContext(cctx, saxpyKernel, groups, y, x, float32(3), uint32(n))
		if !errors.Is(err, context.Canceled) || errors.Is(err, gpu.ErrDeadline) {
			t.Errorf("cancelled context: %v, want context.Canceled only", err)
		}
		// None of the refused launches ran.
		if got := download(t, y); !slices.Equal(got, y0) {
			t.Fatal("a refused launch wrote its output")
		}

		// A launch within its deadline runs, as the reference does.
		want := slices.Clone(y0)
		if err := xpu.Run(xpu.Config{Groups: groups, Block: saxpyKernel.Block()}, saxpy, want, x0, float32(3), uint32(n)); err != nil {
			t.Fatal(err)
		}
		if err := d.Stream().LaunchBy(time.Now().Add(time.Minute), saxpyKernel, groups, y, x, float32(3), uint32(n)); err != nil {
			t.Fatal(err)
		}
		got := download(t, y)
		for i := range got {
			if !closeF32(got[i], want[i], abs(3*x0[i])+abs(y0[i])) {
				t.Fatalf("y[%d] = %v, reference %v (within 2 ulp)", i, got[i], want[i])
			}
		}
	})
}

func TestBufferShorterThanDeclared(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := newBuf[float32](t, d, 100), newBuf[float32](t, d, 64)
		err := d.Stream().Launch(boundedSaxpy, xpu.Dim3{X: 2}, y, x, float32(1), uint32(100))
		wantRefusal(t, err, gpu.ErrBufferLen, boundedSaxpy.Name(), "parameter x", "64 elements", "n = 100")
		if err := d.Stream().Launch(boundedSaxpy, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64)); err != nil {
			t.Fatalf("a launch within the bound is refused: %v", err)
		}
		err = d.Stream().Launch(badBound, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64))
		wantRefusal(t, err, gpu.ErrNoCode, "length bound")
	})
}

// TestBufferShorterThanProduct checks a bound that is a product of
// scalars: computed in 64 bits, an overflow of those refused as more than
// any buffer holds.
func TestBufferShorterThanProduct(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := newBuf[float32](t, d, 1000), newBuf[float32](t, d, 99)
		err := d.Stream().Launch(squareSaxpy, xpu.Dim3{X: 1}, y, x, float32(1), uint32(10))
		wantRefusal(t, err, gpu.ErrBufferLen, squareSaxpy.Name(), "parameter x", "99 elements", "n*n = 100")
		// 2^16 cubed is 0 in 32 bits; 2^22 cubed is past 2^64.
		err = d.Stream().Launch(squareSaxpy, xpu.Dim3{X: 1}, y, x, float32(1), uint32(1<<16))
		wantRefusal(t, err, gpu.ErrBufferLen, "parameter y", "n*n*n = 281474976710656")
		err = d.Stream().Launch(squareSaxpy, xpu.Dim3{X: 1}, y, x, float32(1), uint32(1<<22))
		wantRefusal(t, err, gpu.ErrBufferLen, "parameter y", "n*n*n = more than 2^64-1")
		// A product of zero binds any buffer.
		if err := d.Stream().Launch(squareSaxpy, xpu.Dim3{X: 1}, y, x, float32(1), uint32(0)); err != nil {
			t.Fatalf("a launch with n = 0 is refused: %v", err)
		}
		if err := d.Stream().Launch(squareSaxpy, xpu.Dim3{X: 1}, y, x, float32(1), uint32(9)); err != nil {
			t.Fatalf("a launch within the bound is refused: %v", err)
		}
		err = d.Stream().Launch(badProduct, xpu.Dim3{X: 1}, y, x, float32(1), uint32(9))
		wantRefusal(t, err, gpu.ErrNoCode, "length bound n*a", `"a" is no uint32 or int32 scalar`)
	})
}

func TestManifestsAreCopies(t *testing.T) {
	// The backend of its first artifact: not the first compiled in,
	// which may be one it has no code for (cuda).
	backend := nativeWave.Manifests()[0].Backend
	m, ok := nativeWave.Manifest(backend)
	if !ok || m.Wave != 64 || m.WaveTier != schema.TierNative {
		t.Fatalf("Kernel.Manifest = %+v, %v", m, ok)
	}
	if m.PrivateBytes != nil || m.Registers != nil || m.SpillBytes != nil {
		t.Errorf("facts the spec did not give are present: %+v", m)
	}
	m.WaveTier = schema.TierScalar
	if again, _ := nativeWave.Manifest(backend); again.WaveTier != schema.TierNative {
		t.Error("a manifest's copy changed the registered one")
	}
	if _, ok := saxpyKernel.Manifest(schema.BackendCUDA); ok {
		t.Error("a spec without artifacts for a backend has a manifest for it")
	}
	if _, ok := (&gpu.Kernel{}).Manifest(schema.BackendCPU); ok {
		t.Error("an unregistered kernel has a manifest")
	}
	if _, ok := (*gpu.Kernel)(nil).Manifest(schema.BackendCPU); ok {
		t.Error("a nil kernel has a manifest")
	}
}
