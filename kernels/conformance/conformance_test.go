package conformance_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestConformance runs every case on every device present.
func TestConformance(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, conformance.Cases()) })
}

// TestStreamCases runs the cases of the runtime's streams (capture and
// replay, two streams on one buffer) on every device present.
func TestStreamCases(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, conformance.StreamCases()) })
}

// TestRefusedMember checks that launching the refused template member
// fails with gpu.ErrRefused, naming the member and its failing clause.
func TestRefusedMember(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, err := gpu.NewBuffer[int32](d, 64)
		if err != nil {
			t.Fatal(err)
		}
		defer y.Release()
		err = d.Stream().Launch(conformance.ScaleNegKernel, xpu.Dim3{X: 1}, y, uint32(64))
		if !errors.Is(err, gpu.ErrRefused) {
			t.Fatalf("launching ScaleNeg: err = %v, want one wrapping gpu.ErrRefused", err)
		}
		for _, want := range []string{"ScaleNeg", "c.Factor > 0"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("launching ScaleNeg: error %q does not name %q", err, want)
			}
		}
	})
}

// TestTemplateLauncher runs members of Scale through the template's
// launcher on every device present, and checks its refusals: a value
// that is no member's names the template and lists the members' values;
// the value of the refused member reports that member's refusal.
func TestTemplateLauncher(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		gputest.Check(t, d, conformance.TemplateLauncherCases())
		y, err := gpu.NewBuffer[int32](d, 64)
		if err != nil {
			t.Fatal(err)
		}
		defer y.Release()
		s := d.Stream()
		err = conformance.LaunchScale(s, xpu.Dim3{X: 1}, conformance.ScaleParams{Factor: 5}, y, 64)
		const want = "gpu: template github.com/goxpu/xpu/kernels/conformance.Scale has no member of the comptime value {Factor:5 Offset:0}; " +
			"its members are Scale2 {Factor:2 Offset:1}, Scale3 {Factor:3 Offset:-7}, ScaleNeg {Factor:-1 Offset:0}: bad kernel arguments"
		if !errors.Is(err, gpu.ErrArgs) || err.Error() != want {
			t.Errorf("LaunchScale of a value that is no member's: err = %v,\nwant %s (wrapping gpu.ErrArgs)", err, want)
		}
		err = conformance.LaunchScale(s, xpu.Dim3{X: 1}, conformance.ScaleParams{Factor: -1}, y, 64)
		if !errors.Is(err, gpu.ErrRefused) || !strings.Contains(err.Error(), "[xpu-requires] ScaleNeg: requires c.Factor > 0 is false") {
			t.Errorf("LaunchScale of the refused member's value: err = %v, want ScaleNeg's refusal wrapping gpu.ErrRefused", err)
		}
	})
}

// TestCasesCoverKernels checks that every kernel the package registers
// with code has a case, that no two cases share a name, and that a kernel
// with several cases has a label on each.
func TestCasesCoverKernels(t *testing.T) {
	seen, names, unlabeled := map[string]int{}, map[string]bool{}, map[string]bool{}
	for _, c := range conformance.Cases() {
		if names[c.Name()] {
			t.Errorf("two cases named %s", c.Name())
		}
		names[c.Name()] = true
		seen[c.Kernel.Name()]++
		unlabeled[c.Kernel.Name()] = unlabeled[c.Kernel.Name()] || c.Label == ""
	}
	for k, n := range seen {
		if n > 1 && unlabeled[k] {
			t.Errorf("%s has %d cases, one of them without a label", k, n)
		}
	}
	prefix := "github.com/goxpu/xpu/kernels/conformance."
	for _, k := range gpu.Kernels() {
		if strings.HasPrefix(k.Name(), prefix) && k.Refused() == "" && seen[k.Name()] == 0 {
			t.Errorf("kernel %s has no case", k.Name())
		}
	}
	if len(seen) < 30 {
		t.Errorf("%d cases, want at least 30", len(seen))
	}
}
