package corpus_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/corpus"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestReplayConformance records the conformance suite on every device
// into a corpus, replays it, and checks that every launch agrees with
// its reference within the bound the suite's case states. The suite's
// bounds hold for any device, so a device may need less: the replay
// then reports the hold stale, and the test replays again with the
// holds the first replay found needed, which must pass with none stale.
func TestReplayConformance(t *testing.T) {
	seed, err := gputest.Seed()
	if err != nil {
		t.Fatal(err)
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		dir := t.TempDir()
		holds := recordSuite(t, d, dir, seed)
		r, err := corpus.Replay(dir, corpus.Options{Holds: holds})
		if err != nil {
			t.Fatal(err)
		}
		var needed = corpus.Holds{}
		for _, v := range r.Launches {
			if v.Outcome != corpus.Agree && v.Outcome != corpus.Held {
				t.Errorf("%s: %s: %v (seed %d)", v.Path, v.Outcome, v.Err, seed)
			}
		}
		for _, h := range r.Holds {
			if h.Launches == 0 {
				t.Errorf("hold of %s: no launch of it replayed", h.Kernel)
			}
			if h.ULP > 0 {
				needed[h.Kernel] = corpus.Hold{ULP: h.ULP, Why: "what this corpus needs of: " + h.Why}
			}
		}
		if t.Failed() {
			logReport(t, r)
			return
		}
		t.Logf("%d launches of %d kernels replayed; %d of the suite's %d holds are looser than this device needs",
			len(r.Launches), kernelsIn(r), stale(r), len(r.Holds))
		tight, err := corpus.Replay(dir, corpus.Options{Holds: needed})
		if err != nil {
			t.Fatal(err)
		}
		if err := tight.Err(); err != nil {
			logReport(t, tight)
			t.Errorf("replay with the holds the corpus needs: %v", err)
		}
	})
}

// recordSuite records the suite's cases on d into dir, running each as
// its test does (gputest.Run, which compares d with the reference), and
// returns the holds its cases' bounds give. It leaves out the cases
// whose reference is not their kernel's own (a rule Go leaves to the
// implementation), those marked with a known bug on d, and those bounded
// by an absolute or relative difference, which a hold in ulp cannot
// state.
func recordSuite(t *testing.T, d *gpu.Device, dir string, seed uint64) corpus.Holds {
	t.Helper()
	if err := d.SetRecord(dir); err != nil {
		t.Fatal(err)
	}
	defer d.SetRecord("")
	holds := corpus.Holds{}
	left := 0
	for _, c := range conformance.Cases() {
		if c.Reference != nil || c.Known[string(d.Backend())] != "" || c.Tol.Abs != 0 || c.Tol.Rel != 0 {
			left++
			continue
		}
		if err := gputest.Run(d, c, seed); err != nil {
			t.Errorf("%s: %v (seed %d)", c.Name(), err, seed)
		}
		if c.Tol.ULP > 0 {
			holds[c.Kernel.Name()] = corpus.Hold{ULP: uint64(c.Tol.ULP), Why: c.Tol.Name}
		}
	}
	t.Logf("recorded the suite but %d cases into %s", left, d.Recording())
	return holds
}

func logReport(t *testing.T, r *corpus.Report) {
	t.Helper()
	var b testWriter
	r.Print(&b, false)
	t.Log("\n" + string(b))
}

type testWriter []byte

func (w *testWriter) Write(p []byte) (int, error) { *w = append(*w, p...); return len(p), nil }

func kernelsIn(r *corpus.Report) int {
	ks := map[string]bool{}
	for _, v := range r.Launches {
		ks[v.Kernel] = true
	}
	return len(ks)
}

func stale(r *corpus.Report) int {
	n := 0
	for _, h := range r.Holds {
		if h.Stale {
			n++
		}
	}
	return n
}
