package tune_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/tune"
)

// scale is a family of the conformance suite's Scale template over a
// problem of n elements: its members differ in their constants, so that
// the tuner's mechanics run on real launches of every device.
func scale(members ...*gpu.Kernel) *tune.Family[int] {
	groups := func(n int) xpu.Dim3 { return xpu.Dim3{X: xpu.GroupsFor(uint32(n), 64)} }
	return &tune.Family[int]{
		Name:    "github.com/goxpu/xpu/kernels/conformance.Scale",
		Members: members,
		Key:     func(n int) tune.Key { return tune.KeyOf(tune.Dim{Name: "n", Size: tune.Pow2(n)}) },
		Need: func(k *gpu.Kernel, n int) tune.Need {
			return tune.Need{Groups: groups(n), BufferBytes: 4 * uint64(n)}
		},
		Probe: func(s *gpu.Stream, n int) (func(k *gpu.Kernel) error, func(), error) {
			y, err := gpu.NewBuffer[int32](s.Device(), n)
			if err != nil {
				return nil, nil, err
			}
			run := func(k *gpu.Kernel) error { return s.Launch(k, groups(n), y, uint32(n)) }
			return run, y.Release, nil
		},
	}
}

var scaleMembers = []*gpu.Kernel{conformance.Scale2Kernel, conformance.Scale3Kernel, conformance.ScaleNegKernel}

// TestChoose runs a family on every device: the refused member pruned
// with its rule, the survivors timed in rounds, the winner stored and
// read back by another tuner without timing.
func TestChoose(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		st, err := tune.OpenStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		f := scale(scaleMembers...)
		var logged []string
		tu := &tune.Tuner{Store: st, Log: func(c *tune.Choice) { logged = append(logged, c.String()) }}
		c, err := tune.Choose(tu, d.Stream(), f, 3000)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(logged)
		if c.Key != "n=4096" || !slices.Equal(c.Survivors, []string{conformance.Scale2Kernel.Name(), conformance.Scale3Kernel.Name()}) ||
			len(c.Pruned) != 1 || c.Pruned[0].Rule != "refused" || c.Pruned[0].Member != conformance.ScaleNegKernel.Name() {
			t.Fatalf("key %s, survivors %v, pruned %v", c.Key, c.Survivors, c.Pruned)
		}
		if c.Source != tune.Measured || len(c.Timings) != 2 || len(logged) != 1 {
			t.Fatalf("source %v, timings %+v, log %q", c.Source, c.Timings, logged)
		}
		// A close race runs twice the rounds. A contender screened out (on
		// a loaded machine, one of two equals may be) runs none, and then
		// neither does a lone one left: no round could change the order.
		screened := 0
		for _, tm := range c.Timings {
			if tm.Screened {
				screened++
			}
		}
		for _, tm := range c.Timings {
			rounds := len(tm.Rounds)
			raced := rounds == tune.Rounds || rounds == 2*tune.Rounds
			if tm.Screened || screened == len(c.Timings)-1 {
				raced = rounds == 0
			}
			if !raced || tm.Median <= 0 || tm.Launches < 1 {
				t.Errorf("timing %+v (%d screened)", tm, screened)
			}
		}
		if c.Member != conformance.Scale2Kernel && c.Member != conformance.Scale3Kernel {
			t.Errorf("chose %v", c.Member.Name())
		}
		again, err := tune.Choose(&tune.Tuner{Store: st}, d.Stream(), f, 2100) // the same bucket
		if err != nil {
			t.Fatal(err)
		}
		want := tune.Stored
		if !c.Saved {
			want = tune.Measured // an unstable measurement is not stored
		}
		if again.Source != want || want == tune.Stored && again.Member != c.Member {
			t.Errorf("a second tuner: %v %s; the first %v %s, saved %t", again.Source, again.Chosen, c.Source, c.Chosen, c.Saved)
		}
	})
}

// TestChoosePinned checks that a pinned tuner launches the first
// survivor without timing, and that a problem no member fits is refused.
func TestChoosePinned(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		c, err := tune.Choose(&tune.Tuner{Pinned: true}, d.Stream(), scale(scaleMembers...), 100)
		if err != nil || c.Source != tune.Pinned || c.Member != conformance.Scale2Kernel || c.Timings != nil {
			t.Errorf("pinned: %+v, %v", c, err)
		}
		_, err = tune.Choose(&tune.Tuner{Pinned: true}, d.Stream(), scale(conformance.ScaleNegKernel), 100)
		var re *tune.RefusalError
		if !errors.As(err, &re) || !errors.Is(err, tune.ErrInfeasible) || len(re.Verdicts) != 1 || re.Verdicts[0].Rule != "refused" {
			t.Errorf("a family of a refused member alone: %v", err)
		}
		if _, err := tune.Choose(&tune.Tuner{}, d.Stream(), scale(), 100); err == nil {
			t.Error("a family without members was chosen from")
		}
	})
}

// TestPays checks a binary question on every device: one launch against
// eight of the same kernel pays, and is remembered.
func TestPays(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const n = 1 << 16
		y, err := gpu.NewBuffer[int32](d, n)
		if err != nil {
			t.Fatal(err)
		}
		defer y.Release()
		s := d.Stream()
		launches := func(times int) func() error {
			return func() error {
				for range times {
					if err := s.Launch(conformance.Scale2Kernel, xpu.Dim3{X: n / 64}, y, uint32(n)); err != nil {
						return err
					}
				}
				return nil
			}
		}
		hash := tune.CodeHash(d, conformance.Scale2Kernel)
		one := tune.Variant{Name: "one", Hash: hash, Run: launches(1)}
		eight := tune.Variant{Name: "eight", Hash: hash, Run: launches(8)}
		tu := &tune.Tuner{}
		key := tune.KeyOf(tune.Dim{Name: "n", Size: n})
		pays, c, err := tu.Pays(s, "test/one-launch", key, one, eight)
		if err != nil || !pays || c.Source != tune.Measured || c.Chosen != "one" {
			t.Fatalf("one launch against eight: pays %t, %+v, %v", pays, c, err)
		}
		if pays, c, err := tu.Pays(s, "test/one-launch", key, one, eight); err != nil || !pays || c.Source != tune.Remembered {
			t.Errorf("asked again: pays %t, %v, %v", pays, c.Source, err)
		}
		if pays, c, err := (&tune.Tuner{Pinned: true}).Pays(s, "test/one-launch", key, one, eight); err != nil || pays || c.Source != tune.Pinned {
			t.Errorf("pinned: pays %t, %v, %v", pays, c.Source, err)
		}
		if _, _, err := tu.Pays(s, "test/one-launch", key, one, one); err == nil {
			t.Error("two variants of one name were compared")
		}
	})
}

// TestSweep checks that a sweep times every survivor and leaves the
// tuner's store alone.
func TestSweep(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		st, err := tune.OpenStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		c, err := tune.Sweep(&tune.Tuner{Store: st}, d.Stream(), scale(scaleMembers...), 5000)
		if err != nil {
			t.Fatal(err)
		}
		if c.Source != tune.Measured || len(c.Timings) != 2 || c.Saved {
			t.Errorf("sweep: %v, %d timings, saved %t", c.Source, len(c.Timings), c.Saved)
		}
		if es, err := st.Entries(); err != nil || len(es) != 0 {
			t.Errorf("a sweep stored %+v (%v)", es, err)
		}
	})
}
