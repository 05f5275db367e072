package gputest_test

import (
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	_ "github.com/goxpu/xpu/kernels/conformance" // the kernels the census counts
)

// TestCensusFindings runs the census over the conformance suite's kernels
// with a record of its own: every kernel checked but one, an excuse for
// that one and for a checked kernel, and an excuse naming no kernel.
func TestCensusFindings(t *testing.T) {
	const pkg = "github.com/goxpu/xpu/kernels/conformance"
	c := gputest.NewTally()
	if got := c.Findings(gpu.Kernels(), pkg, map[string]string{"Saxpy": "why"}); got != nil {
		t.Errorf("no backend ran, yet findings %q", got)
	}
	for _, k := range gpu.Kernels() {
		if strings.HasPrefix(k.Name(), pkg+".") && k.Name() != pkg+".Saxpy" {
			c.Record("cpu", k.Name())
		}
	}
	got := strings.Join(c.Findings(gpu.Kernels(), pkg, nil), "\n")
	if !strings.Contains(got, "Saxpy has code for cpu, but no test value-checked it there") {
		t.Errorf("an uncovered kernel is not found:\n%s", got)
	}
	if strings.Count(got, "\n") != 0 {
		t.Errorf("findings beyond the uncovered kernel:\n%s", got)
	}
	if got := c.Findings(gpu.Kernels(), pkg, map[string]string{"Saxpy": "no device runs it"}); got != nil {
		t.Errorf("an excused kernel is still found: %q", got)
	}
	got = strings.Join(c.Findings(gpu.Kernels(), pkg, map[string]string{"Saxpy": "a", "Grid2D": "b", "Gone": "c"}), "\n")
	for _, want := range []string{"Grid2D was value-checked on cpu, but is excused (b): remove the excuse", "the excuse for Gone names no kernel with code"} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
}
