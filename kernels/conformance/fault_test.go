package conformance_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestDivisionByZeroFaults plants a zero divisor at a random position of
// random inputs: Go (the reference runner) fails, and so must every
// backend, with an error wrapping gpu.ErrFault that names the kernel,
// at the launch or at the observation that follows it; without zeros the
// kernel matches the reference bit for bit, and the stream keeps working
// after the fault.
func TestDivisionByZeroFaults(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		t.Run("IntArith", func(t *testing.T) {
			faultCase(t, d, "IntArith", conformance.IntArith, conformance.LaunchIntArith,
				func(r *rand.Rand) int32 { return int32(r.Uint32()) })
		})
		t.Run("UintArith", func(t *testing.T) {
			faultCase(t, d, "UintArith", conformance.UintArith, conformance.LaunchUintArith,
				func(r *rand.Rand) uint32 { return r.Uint32() >> r.UintN(32) })
		})
	})
}

// faultArithOut is how many results the arithmetic kernels write per pair.
const faultArithOut = 5

func faultCase[T int32 | uint32](t *testing.T, d *gpu.Device, name string,
	kernel func(xpu.Thread, []T, []T, []T, uint32),
	launch func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[T], *gpu.Buffer[T], *gpu.Buffer[T], uint32) error,
	random func(*rand.Rand) T) {
	const block = 64
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	n := 200 + r.IntN(800)
	a, b := make([]T, n), make([]T, n)
	for i := range n {
		a[i] = random(r)
		for b[i] == 0 {
			b[i] = random(r)
		}
	}
	groups := xpu.Dim3{X: uint32((n + block - 1) / block)}
	cfg := xpu.Config{Groups: groups, Block: xpu.Dim3{X: block}}
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// run launches the kernel on a and b and returns the output, or the
	// first error of the launch and its observation.
	run := func(a, b []T) ([]T, error) {
		ab, err := gpu.Upload(d, a)
		if err != nil {
			t.Fatal(err)
		}
		defer ab.Release()
		bb, err := gpu.Upload(d, b)
		if err != nil {
			t.Fatal(err)
		}
		defer bb.Release()
		out, err := gpu.NewBuffer[T](d, n*faultArithOut)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		if err := launch(s, groups, out, ab, bb, uint32(n)); err != nil {
			return nil, err
		}
		return out.Download()
	}
	clean := func(when string) {
		t.Helper()
		want := make([]T, n*faultArithOut)
		if err := xpu.Run(cfg, kernel, want, a, b, uint32(n)); err != nil {
			t.Fatalf("%s: reference: %v", when, err)
		}
		got, err := run(a, b)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: out[%d] = %d, want %d", when, i, got[i], want[i])
			}
		}
	}

	clean("before the fault")

	zero := r.IntN(n)
	bz := slices.Clone(b)
	bz[zero] = 0
	if err := xpu.Run(cfg, kernel, make([]T, n*faultArithOut), a, bz, uint32(n)); err == nil {
		t.Fatalf("the reference runner divides by zero at %d without an error", zero)
	}
	_, err = run(a, bz)
	if err == nil {
		t.Fatalf("a zero divisor at %d: no error", zero)
	}
	if !errors.Is(err, gpu.ErrFault) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "by zero") {
		t.Fatalf("a zero divisor at %d: err = %v, want gpu.ErrFault naming %s and the division by zero", zero, err, name)
	}
	t.Logf("zero divisor at %d of %d: %v", zero, n, err)

	// The fault is reported once; the stream and device keep working.
	if err := s.Sync(); err != nil {
		t.Fatalf("sync after the fault: %v", err)
	}
	clean("after the fault")
}
