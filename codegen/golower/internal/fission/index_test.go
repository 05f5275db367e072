package fission_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/golower/internal/fission"
	"github.com/goxpu/xpu/cpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestConstantIndexOutOfRange: ConstantIndexOutOfRange, whose indexes
// fold to constants outside their arrays in a branch, builds on every
// backend. With the branch never taken it matches the reference; taken,
// the reference runner fails (xpu.ErrRun), and so does the CPU backend,
// whose lowering must check the index at run time: cpu.ErrKernel, a
// gpu.ErrFault naming the kernel and the index. Devices do not check
// indexes (docs/language.md), so the taken branch runs on the CPU only.
func TestConstantIndexOutOfRange(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		never := inOutN(fission.ConstantIndexOutOfRangeKernel, 0, fission.LaunchConstantIndexOutOfRange)
		if err := gputest.Run(d, never, seed); err != nil {
			t.Fatalf("branch not taken: %v\n(seed %d: rerun with %s=%d)", err, seed, gputest.SeedEnv, seed)
		}
		if d.Backend() != "cpu" {
			return
		}
		r := rand.New(rand.NewPCG(seed, 1))
		in := words(r, items)
		g := xpu.Dim3{X: groups}
		if err := d.Reference(fission.ConstantIndexOutOfRangeKernel, g, make([]uint32, items), in, uint32(1)); !errors.Is(err, xpu.ErrRun) {
			t.Fatalf("branch taken: the reference runner: err = %v, want xpu.ErrRun", err)
		}
		s, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ib, err := gpu.Upload(d, in)
		if err != nil {
			t.Fatal(err)
		}
		defer ib.Release()
		out, err := gpu.NewBuffer[uint32](d, items)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		err = fission.LaunchConstantIndexOutOfRange(s, g, out, ib, 1)
		if err == nil {
			_, err = out.Download()
		}
		if !errors.Is(err, cpu.ErrKernel) || !errors.Is(err, gpu.ErrFault) ||
			!strings.Contains(err.Error(), "ConstantIndexOutOfRange") || !strings.Contains(err.Error(), "index out of range") {
			t.Fatalf("branch taken: err = %v, want cpu.ErrKernel (gpu.ErrFault) naming the kernel and the index out of range", err)
		}
		t.Logf("branch taken: %v", err)
	})
}

// TestConstantFaults: ConstantFaults, whose divisors and shift count fold
// to zero and to a negative constant in a branch, builds on every backend.
// With the branch never taken it matches the reference; taken, the
// reference runner fails (xpu.ErrRun) and every backend reports a kernel
// fault (gpu.ErrFault) naming the kernel, as Go panics.
func TestConstantFaults(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		never := inOutN(fission.ConstantFaultsKernel, 0, fission.LaunchConstantFaults)
		if err := gputest.Run(d, never, seed); err != nil {
			t.Fatalf("branch not taken: %v\n(seed %d: rerun with %s=%d)", err, seed, gputest.SeedEnv, seed)
		}
		r := rand.New(rand.NewPCG(seed, 2))
		in := words(r, items)
		g := xpu.Dim3{X: groups}
		if err := d.Reference(fission.ConstantFaultsKernel, g, make([]uint32, items), in, uint32(1)); !errors.Is(err, xpu.ErrRun) {
			t.Fatalf("branch taken: the reference runner: err = %v, want xpu.ErrRun", err)
		}
		ib, err := gpu.Upload(d, in)
		if err != nil {
			t.Fatal(err)
		}
		defer ib.Release()
		out, err := gpu.NewBuffer[uint32](d, items)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		err = fission.LaunchConstantFaults(d.Stream(), g, out, ib, 1)
		if err == nil {
			_, err = out.Download()
		}
		if !errors.Is(err, gpu.ErrFault) || !strings.Contains(err.Error(), "ConstantFaults") {
			t.Fatalf("branch taken: err = %v, want a gpu.ErrFault naming the kernel", err)
		}
		t.Logf("branch taken: %v", err)
	})
}
