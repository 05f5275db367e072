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
			faultCase(t, d, faulting[int32]{
				name: "IntArith", kernel: conformance.IntArith, launch: conformance.LaunchIntArith,
				outs: faultArithOut, what: "by zero",
				a:   func(r *rand.Rand) int32 { return int32(r.Uint32()) },
				b:   func(r *rand.Rand) int32 { return nonZero(func() int32 { return int32(r.Uint32()) }) },
				bad: func(*rand.Rand) int32 { return 0 },
			})
		})
		t.Run("UintArith", func(t *testing.T) {
			u := func(r *rand.Rand) uint32 { return r.Uint32() >> r.UintN(32) }
			faultCase(t, d, faulting[uint32]{
				name: "UintArith", kernel: conformance.UintArith, launch: conformance.LaunchUintArith,
				outs: faultArithOut, what: "by zero",
				a:   u,
				b:   func(r *rand.Rand) uint32 { return nonZero(func() uint32 { return u(r) }) },
				bad: func(*rand.Rand) uint32 { return 0 },
			})
		})
	})
}

// TestNegativeShiftFaults plants a negative int32 shift count at a random
// position of random counts from 0 to 69: Go panics, so every backend must
// fail with gpu.ErrFault naming the kernel and the negative shift, for
// <<, >> and the shift assignments of int32 and uint32 values. Without a
// negative count the kernel matches the reference bit for bit (counts of
// the width and more included), and the stream keeps working.
func TestNegativeShiftFaults(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		faultCase(t, d, faulting[int32]{
			name: "ShiftSigned", kernel: conformance.ShiftSigned, launch: conformance.LaunchShiftSigned,
			outs: shiftSignedOut, what: "negative shift amount",
			a:   func(r *rand.Rand) int32 { return int32(r.Uint32()) },
			b:   func(r *rand.Rand) int32 { return r.Int32N(70) },
			bad: func(r *rand.Rand) int32 { return int32(-1 - r.Int64N(1<<r.IntN(32))) }, // -1 down to MinInt32
		})
	})
}

// faultArithOut is how many results the arithmetic kernels write per pair;
// shiftSignedOut is ShiftSigned's.
const faultArithOut, shiftSignedOut = 5, 8

// nonZero returns the first nonzero value of random.
func nonZero[T int32 | uint32](random func() T) T {
	for {
		if v := random(); v != 0 {
			return v
		}
	}
}

// faulting is a kernel of two operands that faults where Go panics: on
// a second operand drawn by bad, and never on one drawn by b.
type faulting[T int32 | uint32] struct {
	name   string
	kernel func(xpu.Thread, []T, []T, []T, uint32)
	launch func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[T], *gpu.Buffer[T], *gpu.Buffer[T], uint32) error
	outs   int    // results per pair
	what   string // what the fault's error says
	a, b   func(*rand.Rand) T
	bad    func(*rand.Rand) T
}

func faultCase[T int32 | uint32](t *testing.T, d *gpu.Device, k faulting[T]) {
	const block = 64
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	n := 200 + r.IntN(800)
	a, b := make([]T, n), make([]T, n)
	for i := range n {
		a[i], b[i] = k.a(r), k.b(r)
	}
	groups := xpu.Dim3{X: uint32((n + block - 1) / block)}
	cfg := xpu.Config{Groups: groups, Block: xpu.Dim3{X: block}}
	s, err := d.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	spare, err := gpu.NewBuffer[T](d, n)
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Release()

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
		out, err := gpu.NewBuffer[T](d, n*k.outs)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		if err := k.launch(s, groups, out, ab, bb, uint32(n)); err != nil {
			return nil, err
		}
		// A write after the launch does not wait for it, and leaves
		// its fault to the read.
		if err := spare.Write(a); err != nil {
			t.Fatalf("a write after the launch: %v", err)
		}
		return out.Download()
	}
	clean := func(when string) {
		t.Helper()
		want := make([]T, n*k.outs)
		if err := xpu.Run(cfg, k.kernel, want, a, b, uint32(n)); err != nil {
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

	at := r.IntN(n)
	bad := slices.Clone(b)
	bad[at] = k.bad(r)
	if err := xpu.Run(cfg, k.kernel, make([]T, n*k.outs), a, bad, uint32(n)); !errors.Is(err, xpu.ErrRun) {
		t.Fatalf("the reference runner on %d at %d: err = %v, want xpu.ErrRun", bad[at], at, err)
	}
	_, err = run(a, bad)
	if err == nil {
		t.Fatalf("%d at %d: no error", bad[at], at)
	}
	if !errors.Is(err, gpu.ErrFault) || !strings.Contains(err.Error(), k.name) || !strings.Contains(err.Error(), k.what) {
		t.Fatalf("%d at %d: err = %v, want gpu.ErrFault naming %s and saying %q", bad[at], at, err, k.name, k.what)
	}
	t.Logf("%d at %d of %d: %v", bad[at], at, n, err)

	// The fault is reported once; the stream and device keep working.
	if err := s.Sync(); err != nil {
		t.Fatalf("sync after the fault: %v", err)
	}
	clean("after the fault")
}
