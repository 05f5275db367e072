package tune

// This file is the measured choice: the filter's survivors, the answer
// remembered for the process or in the store, or a race of the survivors
// at the problem's shape, whose winner is remembered.

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/goxpu/xpu/gpu"
)

// A Tuner chooses members and remembers its choices: for the process, and
// in its Store. Its zero value tunes without a store; set its fields
// before its first use. It is safe for concurrent use, and decides one
// problem once at a time: a second goroutine asking for it waits for the
// first's answer.
type Tuner struct {
	// Store remembers choices across processes; nil for none. A store
	// that cannot be written leaves the choices to the process.
	Store *Store
	// Pinned makes the tuner time nothing: a problem neither remembered
	// nor stored runs its first survivor. Tests pin, so that a result
	// does not depend on a measurement.
	Pinned bool
	// Force maps a family's name to the member's name (the kernel's) it
	// always takes where that member survives the filter: for sweeps.
	Force map[string]string
	// Bracket is the shortest burst of launches timed; DefaultBracket
	// when zero. A burst lasts as well at least 20 times the floor, the
	// time of an empty bracket.
	Bracket time.Duration
	// Log, when not nil, is given every choice as it is made.
	Log func(*Choice)

	mu       sync.Mutex
	memory   map[memoryKey]string      // the member chosen
	deciding map[memoryKey]*sync.Mutex // held while a problem is decided
	// clock times launches on a stream; Stream.Time when nil (tests set
	// it).
	clock func(s *gpu.Stream, f func() error) (time.Duration, error)
}

type memoryKey struct {
	device gpu.DeviceKey
	family string
	key    Key
	build  string
}

// Source says where a choice came from.
type Source int

const (
	Measured   Source = iota // the survivors were timed now
	Only                     // one member survived the filter
	Remembered               // this tuner chose it before, in this process
	Stored                   // read from the store
	Forced                   // Tuner.Force named it
	Pinned                   // a pinned tuner's first survivor
)

var sourceNames = [...]string{"measured", "only survivor", "remembered", "stored", "forced", "pinned"}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return fmt.Sprintf("Source(%d)", int(s))
}

// A Choice is the member a tuner chose for one problem on one device,
// and how.
type Choice struct {
	Family string
	Key    Key
	Device gpu.DeviceKey
	// Member is the chosen kernel (nil for [Tuner.Pays]), Chosen its
	// name or the chosen variant's.
	Member *gpu.Kernel
	Chosen string
	// Survivors are the names of the members the filter kept, in order;
	// Pruned the verdicts on the others.
	Survivors []string
	Pruned    []Verdict
	// Build is the digest of the survivors' code hashes that the store
	// files the choice under.
	Build  string
	Source Source
	// Timings are the survivors' measurements, when Source is Measured.
	Timings []Timing
	// Margin is the runner-up's median over the winner's, less one;
	// Ties the members within TieMargin of the fastest, the winner first
	// (nil when none did).
	Margin float64
	Ties   []string
	// Stable is false when the winner's or the runner-up's spread passed
	// MaxSpread and the winner's lead: the choice serves this process and
	// is not stored.
	Stable bool
	// Saved is true when the choice was written to the store.
	Saved bool
	// Notes are what the store reported: entries of another build
	// removed, hints for members that no longer exist dropped, a write
	// that failed.
	Notes []string
	// Cost is the time the choice took, measuring included.
	Cost time.Duration
}

// String spells c as one line for a log.
func (c *Choice) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s (%s", c.Family, c.Key, Short(c.Chosen), c.Source)
	if c.Source == Measured {
		if len(c.Ties) > 0 {
			fmt.Fprintf(&b, ", tie of %s", shortAll(c.Ties))
		} else if len(c.Timings) > 1 {
			fmt.Fprintf(&b, ", lead %.1f%%", 100*c.Margin)
		}
		if !c.Stable {
			b.WriteString(", unstable: not stored")
		}
	}
	fmt.Fprintf(&b, ", %d of %d survive, %v)", len(c.Survivors), len(c.Survivors)+len(c.Pruned), c.Cost.Round(time.Microsecond))
	return b.String()
}

func shortAll(names []string) string { return strings.Join(Shorts(names), "=") }

var (
	defaultOnce  sync.Once
	defaultTuner *Tuner
)

// Default returns the tuner that a nil *Tuner stands for: its store is
// [DefaultStore] (none when that cannot be opened or is off).
func Default() *Tuner {
	defaultOnce.Do(func() {
		st, _ := DefaultStore()
		defaultTuner = &Tuner{Store: st}
	})
	return defaultTuner
}

// Choose returns the member of f that t chooses for problem p on s's
// device: the filter's survivors at p; then the member Force names, the
// one survivor, the choice remembered for the process or stored for p's
// bucket at this build of the survivors; else, with a pinned tuner, the
// first survivor, and otherwise the winner of a race of the survivors by
// f.Probe at p, remembered and, when stable, stored. A problem no member
// fits is a [*RefusalError]; a nil t is [Default].
func Choose[P any](t *Tuner, s *gpu.Stream, f *Family[P], p P) (*Choice, error) {
	return choose(t, s, f, p, (*Tuner).decide)
}

// Sweep times every member of f that survives the filter at p on s's
// device, as a measured choice does, and returns the result as a Choice
// with every survivor's Timing: an exhaustive sweep, to check a choice
// against. It neither reads nor writes what t remembers or stores; a
// nil t is [Default].
func Sweep[P any](t *Tuner, s *gpu.Stream, f *Family[P], p P) (*Choice, error) {
	return choose(t, s, f, p, func(t *Tuner, s *gpu.Stream, c *Choice, q question, _ []string) (int, error) {
		c.Survivors, c.Build = q.names, q.build()
		if len(q.names) == 1 && q.prepare == nil {
			c.Source = Only
			return 0, nil
		}
		return t.measure(s, c, q, false)
	})
}

// choose filters f's members at p and has decide choose among the
// survivors.
func choose[P any](t *Tuner, s *gpu.Stream, f *Family[P], p P, decide func(*Tuner, *gpu.Stream, *Choice, question, []string) (int, error)) (*Choice, error) {
	start := time.Now()
	if t == nil {
		t = Default()
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if s == nil {
		return nil, fmt.Errorf("tune: family %s: %w", f.Name, gpu.ErrArgs)
	}
	key := f.Key(p)
	if err := key.check(); err != nil {
		return nil, fmt.Errorf("tune: family %s: %w", f.Name, err)
	}
	d := s.Device()
	var need func(k *gpu.Kernel) Need
	if f.Need != nil {
		need = func(k *gpu.Kernel) Need { return f.Need(k, p) }
	}
	dev := FactsOf(d)
	survivors, pruned := Filter(dev, candidatesOn(d, f.Members, need))
	c := &Choice{Family: f.Name, Key: key, Device: dev.Key, Pruned: pruned, Stable: true}
	if len(survivors) == 0 {
		return nil, &RefusalError{Family: f.Name, Key: key, Device: dev.Key, Verdicts: pruned}
	}
	q := question{family: f.Name, key: key}
	for _, sv := range survivors {
		q.names = append(q.names, sv.Kernel.Name())
		q.hashes = append(q.hashes, sv.Manifest.Hash)
	}
	if f.Probe != nil {
		q.prepare = func() ([]func() error, func(), error) {
			run, release, err := f.Probe(s, p)
			if err != nil {
				return nil, nil, fmt.Errorf("tune: family %s: probe at %s: %w", f.Name, key, err)
			}
			runs := make([]func() error, len(survivors))
			for i, sv := range survivors {
				runs[i] = func() error { return run(sv.Kernel) }
			}
			return runs, release, nil
		}
	}
	members := make([]string, len(f.Members))
	for i, k := range f.Members {
		members[i] = k.Name()
	}
	i, err := decide(t, s, c, q, members)
	if err != nil {
		return nil, err
	}
	c.Member, c.Chosen = survivors[i].Kernel, q.names[i]
	c.Cost = time.Since(start)
	if t.Log != nil {
		t.Log(c)
	}
	return c, nil
}

// A question is what decide chooses among: survivors by name and code
// hash, and how to run them at the problem.
type question struct {
	family string
	key    Key
	names  []string
	hashes []string
	// prepare returns one run per survivor, each recording one launch,
	// and what to release after; nil when nothing can be timed.
	prepare func() (runs []func() error, release func(), err error)
}

// build returns the digest of the survivors' names and code hashes.
func (q question) build() string {
	lines := make([]string, len(q.names))
	for i := range q.names {
		lines[i] = q.names[i] + " " + q.hashes[i]
	}
	slices.Sort(lines)
	return digest(strings.Join(lines, "\n"))
}

// decide fills c's survivors, build and source (and the measurement,
// when it measures) and returns the index of the chosen survivor.
// members are the names of all of the family's members.
func (t *Tuner) decide(s *gpu.Stream, c *Choice, q question, members []string) (int, error) {
	c.Survivors, c.Build = q.names, q.build()
	if want, ok := t.Force[q.family]; ok {
		if i := slices.Index(q.names, want); i >= 0 {
			c.Source = Forced
			return i, nil
		}
		return 0, fmt.Errorf("tune: [tune-force] family %s: the forced member %s is not among the survivors at %s (%s)",
			q.family, want, q.key, strings.Join(q.names, ", "))
	}
	if len(q.names) == 1 {
		c.Source = Only
		return 0, nil
	}
	mk := memoryKey{device: c.Device, family: q.family, key: q.key, build: c.Build}
	// One problem is decided once at a time: a second goroutine waits
	// for the first's answer rather than timing beside it, which would
	// disturb both measurements.
	unlock := t.lockProblem(mk)
	defer unlock()
	t.mu.Lock()
	got, ok := t.memory[mk]
	t.mu.Unlock()
	if i := slices.Index(q.names, got); ok && i >= 0 {
		c.Source = Remembered
		return i, nil
	}
	if t.Store != nil {
		member, notes := t.Store.lookup(c.Device, q.family, q.key, c.Build, members)
		c.Notes = append(c.Notes, notes...)
		if i := slices.Index(q.names, member); i >= 0 {
			t.remember(mk, member)
			c.Source = Stored
			return i, nil
		}
	}
	if t.Pinned {
		c.Source = Pinned
		return 0, nil
	}
	i, err := t.measure(s, c, q, true)
	if err != nil {
		return 0, err
	}
	t.remember(mk, q.names[i])
	if c.Stable && t.Store != nil {
		detail := fmt.Sprintf("# %s among %s: lead %.1f%%, %d rounds", Short(q.names[i]), strings.Join(Shorts(q.names), ", "), 100*c.Margin, len(c.Timings[i].Rounds))
		if err := t.Store.save(c.Device, q.family, q.key, c.Build, q.names[i], detail); err != nil {
			c.Notes = append(c.Notes, err.Error()+": remembered for this process only")
		} else {
			c.Saved = true
		}
	}
	return i, nil
}

// lockProblem locks the decision of mk and returns its unlock.
func (t *Tuner) lockProblem(mk memoryKey) (unlock func()) {
	t.mu.Lock()
	if t.deciding == nil {
		t.deciding = make(map[memoryKey]*sync.Mutex)
	}
	m := t.deciding[mk]
	if m == nil {
		m = new(sync.Mutex)
		t.deciding[mk] = m
	}
	t.mu.Unlock()
	m.Lock()
	return m.Unlock
}

func (t *Tuner) remember(mk memoryKey, member string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.memory == nil {
		t.memory = make(map[memoryKey]string)
	}
	t.memory[mk] = member
}

// measure races q's survivors on s and returns the winner's index.
func (t *Tuner) measure(s *gpu.Stream, c *Choice, q question, screen bool) (int, error) {
	if q.prepare == nil {
		return 0, fmt.Errorf("tune: [tune-probe] family %s has %d survivors at %s and no probe to time them", q.family, len(q.names), q.key)
	}
	runs, release, err := q.prepare()
	if err != nil {
		return 0, err
	}
	if release != nil {
		defer release()
	}
	clk := t.clock
	if clk == nil {
		clk = (*gpu.Stream).Time
	}
	bracket := t.Bracket
	if bracket <= 0 {
		bracket = DefaultBracket
	}
	ts, err := race(func(f func() error) (time.Duration, error) { return clk(s, f) }, q.names, runs, bracket, screen)
	if err != nil {
		return 0, fmt.Errorf("tune: family %s at %s: %w", q.family, q.key, err)
	}
	best, ties, margin := winner(ts)
	c.Source, c.Timings, c.Ties, c.Margin = Measured, ts, ties, margin
	bound := max(MaxSpread, margin)
	c.Stable = ts[best].Spread <= bound
	if second := runnerUp(ts, best); second >= 0 && ts[second].Spread > bound {
		c.Stable = false
	}
	return best, nil
}
