package tune

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu"
)

// A race of fake contenders: each run adds its cost to what the fake
// clock reads, so that the tests state the timings.
type fakeRace struct {
	costs    []time.Duration                    // per launch, by contender
	jitter   func(i, bracket int) time.Duration // added to each launch of contender i in its bracket-th bracket
	calls    []int                              // launches run, by contender
	brackets []int                              // brackets timed, by contender
	last     int                                // the contender the bracket being timed ran; -1 for none
	now      time.Duration
}

func (r *fakeRace) clock(_ *gpu.Stream, f func() error) (time.Duration, error) {
	start := r.now
	r.last = -1
	err := f()
	if r.last >= 0 {
		r.brackets[r.last]++
	}
	return r.now - start + time.Microsecond, err // an empty bracket costs a microsecond
}

func (r *fakeRace) question(family string, key Key, names ...string) question {
	r.calls, r.brackets = make([]int, len(names)), make([]int, len(names))
	q := question{family: family, key: key, names: names}
	for _, n := range names {
		q.hashes = append(q.hashes, "sha256:"+n)
	}
	q.prepare = func() ([]func() error, func(), error) {
		runs := make([]func() error, len(names))
		for i := range names {
			runs[i] = func() error {
				r.calls[i]++
				r.last = i
				r.now += r.costs[i]
				if r.jitter != nil {
					r.now += r.jitter(i, r.brackets[i])
				}
				return nil
			}
		}
		return runs, nil, nil
	}
	return q
}

func (r *fakeRace) launches() int {
	n := 0
	for _, c := range r.calls {
		n += c
	}
	return n
}

var (
	deviceA = gpu.DeviceKey{Backend: "fake", Name: "device A"}
	deviceB = gpu.DeviceKey{Backend: "fake", Name: "device B"}
)

const family = "example.com/kernels.Tiled"

func decideFake(t *testing.T, tu *Tuner, r *fakeRace, dev gpu.DeviceKey, q question, members ...string) (*Choice, string) {
	t.Helper()
	if len(members) == 0 {
		members = q.names
	}
	c := &Choice{Family: q.family, Key: q.key, Device: dev, Stable: true}
	tu.clock = r.clock
	i, err := tu.decide(nil, c, q, members)
	if err != nil {
		t.Fatal(err)
	}
	return c, q.names[i]
}

func openStore(t *testing.T) *Store {
	st, err := OpenStore(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestMeasureAndStore checks that the fastest median wins, that the
// choice is stored, and that a second tuner reads it without timing.
func TestMeasureAndStore(t *testing.T) {
	st := openStore(t)
	key := KeyOf(Dim{"M", 64}, Dim{"N", 128})
	r := &fakeRace{costs: []time.Duration{300 * time.Microsecond, 200 * time.Microsecond, 250 * time.Microsecond}}
	c, got := decideFake(t, &Tuner{Store: st}, r, deviceA, r.question(family, key, "p.A", "p.B", "p.C"))
	if got != "p.B" || c.Source != Measured || !c.Stable || !c.Saved || c.Ties != nil || len(c.Timings) != 3 {
		t.Fatalf("chose %s: %+v", got, c)
	}
	if m := c.Margin; m < 0.24 || m > 0.26 {
		t.Errorf("margin %.3f, want 0.25 (C's 250µs over B's 200µs)", m)
	}
	for _, tm := range c.Timings {
		if tm.Launches*int(r.costs[slices.Index(c.Survivors, tm.Member)]) < int(DefaultBracket) || len(tm.Rounds) != Rounds {
			t.Errorf("%s: bursts of %d launches, %d rounds: shorter than the bracket", tm.Member, tm.Launches, len(tm.Rounds))
		}
	}
	r2 := &fakeRace{costs: r.costs}
	c2, got2 := decideFake(t, &Tuner{Store: st}, r2, deviceA, r2.question(family, key, "p.A", "p.B", "p.C"))
	if got2 != "p.B" || c2.Source != Stored || r2.launches() != 0 {
		t.Errorf("second tuner: %s from %v after %d launches; want p.B from the store, none", got2, c2.Source, r2.launches())
	}
	es, err := st.Entries()
	if err != nil || len(es) != 1 || es[0].Member != "p.B" || es[0].Family != family || es[0].Key != key || es[0].Device != deviceA.String() {
		t.Errorf("entries %+v, %v", es, err)
	}
	// The tuner that measured remembers for its process.
	tu := &Tuner{}
	decideFake(t, tu, r, deviceA, r.question(family, key, "p.A", "p.B"))
	r3 := &fakeRace{costs: r.costs}
	if c3, _ := decideFake(t, tu, r3, deviceA, r3.question(family, key, "p.A", "p.B")); c3.Source != Remembered || r3.launches() != 0 {
		t.Errorf("the same tuner again: %v after %d launches", c3.Source, r3.launches())
	}
}

// TestCopiedStore checks that entries measured on one device are not
// read on another, even in a copy of its store.
func TestCopiedStore(t *testing.T) {
	st := openStore(t)
	key := KeyOf(Dim{"n", 1})
	r := &fakeRace{costs: []time.Duration{time.Millisecond, 2 * time.Millisecond}}
	decideFake(t, &Tuner{Store: st}, r, deviceA, r.question(family, key, "p.A", "p.B"))
	copied := openStore(t)
	if err := os.CopyFS(copied.Dir(), os.DirFS(st.Dir())); err != nil {
		t.Fatal(err)
	}
	r2 := &fakeRace{costs: r.costs}
	if c, _ := decideFake(t, &Tuner{Store: copied}, r2, deviceB, r2.question(family, key, "p.A", "p.B")); c.Source != Measured {
		t.Errorf("device B read device A's copied store: %v", c.Source)
	}
	// A device folder whose device file names another device is not read.
	dirA := copied.deviceDir(deviceA)
	if err := os.WriteFile(filepath.Join(dirA, deviceFile), []byte(deviceB.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r3 := &fakeRace{costs: r.costs}
	c, _ := decideFake(t, &Tuner{Store: copied}, r3, deviceA, r3.question(family, key, "p.A", "p.B"))
	if c.Source != Measured || c.Saved || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "another device") {
		t.Errorf("a folder of another device's: %v, saved %t, notes %q", c.Source, c.Saved, c.Notes)
	}
}

// TestStaleBuild checks that a rebuild that changes a survivor's code
// measures again and removes the entry of the old build.
func TestStaleBuild(t *testing.T) {
	st := openStore(t)
	key := KeyOf(Dim{"n", 1})
	r := &fakeRace{costs: []time.Duration{time.Millisecond, 2 * time.Millisecond}}
	c1, _ := decideFake(t, &Tuner{Store: st}, r, deviceA, r.question(family, key, "p.A", "p.B"))
	q := r.question(family, key, "p.A", "p.B")
	q.hashes[1] = "sha256:rebuilt"
	c2, _ := decideFake(t, &Tuner{Store: st}, r, deviceA, q)
	if c2.Build == c1.Build || c2.Source != Measured || len(c2.Notes) != 1 || !strings.Contains(c2.Notes[0], "another build is removed") {
		t.Errorf("after the rebuild: build %s (was %s), %v, notes %q", c2.Build, c1.Build, c2.Source, c2.Notes)
	}
	if es, _ := st.Entries(); len(es) != 1 || es[0].Build != c2.Build {
		t.Errorf("entries %+v; want the new build's alone", es)
	}
}

// TestRemovedMember checks that the hint for a member that no longer
// exists is dropped and reported.
func TestRemovedMember(t *testing.T) {
	st := openStore(t)
	key := KeyOf(Dim{"n", 1})
	r := &fakeRace{costs: []time.Duration{3 * time.Millisecond, time.Millisecond, 2 * time.Millisecond}}
	if _, got := decideFake(t, &Tuner{Store: st}, r, deviceA, r.question(family, key, "p.A", "p.B", "p.C")); got != "p.B" {
		t.Fatalf("chose %s, want p.B", got)
	}
	// p.B's code is deleted: the family is p.A and p.C.
	c, got := decideFake(t, &Tuner{Store: st}, r, deviceA, r.question(family, key, "p.A", "p.C"))
	if got != "p.C" || c.Source != Measured || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "the hint B for n=1 is dropped: no such member") {
		t.Errorf("after removing p.B: %s, %v, notes %q", got, c.Source, c.Notes)
	}
}

// TestUnstable checks that a measurement whose winner's rounds spread
// past MaxSpread is used and remembered for the process, never stored.
func TestUnstable(t *testing.T) {
	st := openStore(t)
	key := KeyOf(Dim{"n", 1})
	// Contender 0's brackets take 0.8, 1.2 and 1.6 ms a launch in turn,
	// contender 1's 1.2 ms: a spread of 67% about a lead of a few.
	r := &fakeRace{costs: []time.Duration{800 * time.Microsecond, 1200 * time.Microsecond}}
	r.jitter = func(i, bracket int) time.Duration {
		if i == 0 {
			return time.Duration(bracket%3) * 400 * time.Microsecond
		}
		return 0
	}
	tu := &Tuner{Store: st}
	c, got := decideFake(t, tu, r, deviceA, r.question(family, key, "p.A", "p.B"))
	if c.Stable || c.Saved {
		t.Fatalf("chose %s, stable %t, saved %t, spread %.2f, lead %.2f", got, c.Stable, c.Saved, c.Timings[0].Spread, c.Margin)
	}
	if es, _ := st.Entries(); len(es) != 0 {
		t.Errorf("an unstable measurement was stored: %+v", es)
	}
	r2 := &fakeRace{costs: r.costs}
	if c, _ := decideFake(t, tu, r2, deviceA, r2.question(family, key, "p.A", "p.B")); c.Source != Remembered {
		t.Errorf("the same process again: %v, want remembered", c.Source)
	}
	// A spread of 20% under a lead of 67% or more stands.
	steady := &fakeRace{costs: []time.Duration{time.Millisecond, 2 * time.Millisecond}}
	steady.jitter = func(i, bracket int) time.Duration {
		if i == 0 && bracket%2 == 1 {
			return time.Millisecond / 5
		}
		return 0
	}
	if c, _ := decideFake(t, &Tuner{Store: st}, steady, deviceA, steady.question(family, KeyOf(Dim{"n", 2}), "p.A", "p.B")); !c.Stable || !c.Saved || c.Timings[0].Spread < 0.15 {
		t.Errorf("a lead of %.2f over a spread of %.2f: stable %t, saved %t", c.Margin, c.Timings[0].Spread, c.Stable, c.Saved)
	}
}

// TestUnwritableStore checks that a store whose folder cannot be written
// leaves the choice to the process, and says so.
func TestUnwritableStore(t *testing.T) {
	st := openStore(t)
	key := KeyOf(Dim{"n", 1})
	// A file where the family's folder would be: no write there
	// succeeds, not even for root.
	famDir := filepath.Join(st.deviceDir(deviceA), "example.com")
	if err := os.MkdirAll(filepath.Dir(famDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(famDir, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	r := &fakeRace{costs: []time.Duration{2 * time.Millisecond, time.Millisecond}}
	tu := &Tuner{Store: st}
	c, got := decideFake(t, tu, r, deviceA, r.question(family, key, "p.A", "p.B"))
	if got != "p.B" || c.Saved || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "remembered for this process only") {
		t.Fatalf("chose %s, saved %t, notes %q", got, c.Saved, c.Notes)
	}
	r2 := &fakeRace{costs: r.costs}
	if c, _ := decideFake(t, tu, r2, deviceA, r2.question(family, key, "p.A", "p.B")); c.Source != Remembered || r2.launches() != 0 {
		t.Errorf("again: %v after %d launches", c.Source, r2.launches())
	}
	if _, err := OpenStore(filepath.Join(famDir, "below")); err == nil {
		t.Error("OpenStore below a file succeeded")
	}
}

// TestTie checks that a lead under TieMargin is a tie, won by the
// earlier member.
func TestTie(t *testing.T) {
	r := &fakeRace{costs: []time.Duration{1020 * time.Microsecond, 1000 * time.Microsecond, 1500 * time.Microsecond}}
	c, got := decideFake(t, &Tuner{}, r, deviceA, r.question(family, KeyOf(Dim{"n", 1}), "p.A", "p.B", "p.C"))
	if got != "p.A" || !slices.Equal(c.Ties, []string{"p.A", "p.B"}) {
		t.Errorf("chose %s, ties %v; want p.A, tied with p.B", got, c.Ties)
	}
}

// TestPinnedAndForced checks that a pinned tuner runs the first
// survivor untimed and that Force takes its member.
func TestPinnedAndForced(t *testing.T) {
	r := &fakeRace{costs: []time.Duration{2 * time.Millisecond, time.Millisecond}}
	key := KeyOf(Dim{"n", 1})
	if c, got := decideFake(t, &Tuner{Pinned: true}, r, deviceA, r.question(family, key, "p.A", "p.B")); got != "p.A" || c.Source != Pinned || r.launches() != 0 {
		t.Errorf("pinned: %s, %v after %d launches", got, c.Source, r.launches())
	}
	tu := &Tuner{Force: map[string]string{family: "p.B"}}
	if c, got := decideFake(t, tu, r, deviceA, r.question(family, key, "p.A", "p.B")); got != "p.B" || c.Source != Forced || r.launches() != 0 {
		t.Errorf("forced: %s, %v after %d launches", got, c.Source, r.launches())
	}
	tu.clock = r.clock
	c := &Choice{Device: deviceA}
	if _, err := tu.decide(nil, c, r.question(family, key, "p.A", "p.C"), nil); err == nil || !strings.Contains(err.Error(), "[tune-force]") {
		t.Errorf("forcing a member that does not survive: %v", err)
	}
}

// TestScreen checks that a contender whose calibration is over
// ScreenFactor behind is left out of a choice's rounds, and timed in a
// sweep's.
func TestScreen(t *testing.T) {
	r := &fakeRace{costs: []time.Duration{time.Millisecond, 5 * time.Millisecond, 1200 * time.Microsecond}}
	c, got := decideFake(t, &Tuner{}, r, deviceA, r.question(family, KeyOf(Dim{"n", 1}), "p.A", "p.B", "p.C"))
	slow := c.Timings[1]
	if got != "p.A" || !slow.Screened || slow.Rounds != nil || slow.Median/time.Microsecond != 5000 || c.Timings[0].Screened || len(c.Timings[2].Rounds) != Rounds {
		t.Fatalf("chose %s; timings %+v", got, c.Timings)
	}
	// p.B ran its warm-up, its calibration's bursts and one burst that
	// confirmed it slow, no round.
	if n := r.calls[1]; n > 1+1+4+4 {
		t.Errorf("the screened contender launched %d times", n)
	}
	tu := &Tuner{clock: r.clock}
	sw := &Choice{Device: deviceA}
	if _, err := tu.measure(nil, sw, r.question(family, KeyOf(Dim{"n", 1}), "p.A", "p.B", "p.C"), false); err != nil {
		t.Fatal(err)
	}
	if sw.Timings[1].Screened || len(sw.Timings[1].Rounds) != Rounds {
		t.Errorf("a sweep screened: %+v", sw.Timings[1])
	}
}

// TestRefine checks that contenders within RefineMargin of the fastest
// race Rounds more among themselves, and the others do not.
func TestRefine(t *testing.T) {
	r := &fakeRace{costs: []time.Duration{1050 * time.Microsecond, 1000 * time.Microsecond, 1300 * time.Microsecond}}
	c, got := decideFake(t, &Tuner{}, r, deviceA, r.question(family, KeyOf(Dim{"n", 1}), "p.A", "p.B", "p.C"))
	if got != "p.B" || len(c.Timings[0].Rounds) != 2*Rounds || len(c.Timings[1].Rounds) != 2*Rounds || len(c.Timings[2].Rounds) != Rounds {
		t.Errorf("chose %s; rounds %d, %d, %d", got, len(c.Timings[0].Rounds), len(c.Timings[1].Rounds), len(c.Timings[2].Rounds))
	}
}

// TestConcurrent checks that goroutines choosing one problem at once
// measure it once: the others wait and take the remembered answer.
func TestConcurrent(t *testing.T) {
	r := &fakeRace{costs: []time.Duration{time.Millisecond, 2 * time.Millisecond}}
	q := r.question(family, KeyOf(Dim{"n", 1}), "p.A", "p.B")
	tu := &Tuner{clock: r.clock}
	var mu sync.Mutex
	sources := map[Source]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &Choice{Device: deviceA, Stable: true}
			if _, err := tu.decide(nil, c, q, q.names); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			sources[c.Source]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if sources[Measured] != 1 || sources[Remembered] != 3 {
		t.Errorf("sources %v; want one measured, three remembered", sources)
	}
}

// TestSweepOne checks that a sweep of one contender times its rounds.
func TestSweepOne(t *testing.T) {
	r := &fakeRace{costs: []time.Duration{time.Millisecond}}
	tu := &Tuner{clock: r.clock}
	c := &Choice{Device: deviceA}
	if _, err := tu.measure(nil, c, r.question(family, KeyOf(Dim{"n", 1}), "p.A"), false); err != nil {
		t.Fatal(err)
	}
	if len(c.Timings) != 1 || len(c.Timings[0].Rounds) != Rounds {
		t.Errorf("timings %+v", c.Timings)
	}
}

// TestScreenConfirms checks that one slow calibration burst does not
// screen a contender out: a second burst that is not slow keeps it in.
func TestScreenConfirms(t *testing.T) {
	r := &fakeRace{costs: []time.Duration{time.Millisecond, time.Millisecond}}
	r.jitter = func(i, bracket int) time.Duration { // p.B's last calibration burst (its third bracket) is 4 times as slow
		if i == 1 && bracket == 2 {
			return 3 * time.Millisecond
		}
		return 0
	}
	c, _ := decideFake(t, &Tuner{}, r, deviceA, r.question(family, KeyOf(Dim{"n", 1}), "p.A", "p.B"))
	if c.Timings[1].Screened || len(c.Timings[1].Rounds) < Rounds {
		t.Errorf("an equal contender was screened out on one slow burst: %+v", c.Timings[1])
	}
}
