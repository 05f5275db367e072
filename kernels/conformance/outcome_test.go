package conformance_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestRunAll checks the suite's non-testing runner on the CPU backend:
// one outcome per case, in order, each reported as it ends, all passing.
func TestRunAll(t *testing.T) {
	d, err := gpu.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	seed, err := gputest.Seed()
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	outs := gputest.RunAll(d, conformance.Cases(), seed, func(o gputest.Outcome) { seen = append(seen, o.Case) })
	cases := conformance.Cases()
	if len(outs) != len(cases) || len(seen) != len(cases) {
		t.Fatalf("%d outcomes, %d reported, want %d", len(outs), len(seen), len(cases))
	}
	for i, o := range outs {
		if o.Case != cases[i].Name() || seen[i] != o.Case {
			t.Errorf("outcome %d is %s (reported %s), want %s", i, o.Case, seen[i], cases[i].Name())
		}
		if !o.OK() {
			t.Errorf("%s: %s: %s (seed %d)", o.Case, o.Status, o.Error, seed)
		}
	}
}
