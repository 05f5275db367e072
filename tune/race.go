package tune

// This file times contenders against each other: a warm-up, a burst of
// launches long enough to leave the launch floor, then interleaved
// rounds, so that a clock that drifts (a processor that warms, a
// neighbour that wakes) cannot favour one contender.

import (
	"slices"
	"time"
)

// The measurement's constants, stated once.
const (
	// Rounds is how many times each contender is timed, interleaved.
	Rounds = 5
	// TieMargin is the lead under which the fastest median ties: the
	// earlier member among those it ties is the winner.
	TieMargin = 0.03
	// MaxSpread bounds how unsteady a measurement may be and still be
	// stored: the spread of a contender is the range of its rounds but
	// the fastest and slowest fifth, over their median. A measurement
	// whose winner or runner-up spreads more than MaxSpread and more
	// than the winner's lead is used for the process and not stored: a
	// lead wider than the noise stands, one within it does not.
	MaxSpread = 0.10
	// ScreenFactor is how many times slower than the fastest a
	// contender's calibration must say it is to be left out of a
	// choice's rounds: so far behind that no round would change the
	// order, and its rounds would cost the most.
	ScreenFactor = 2.0
	// RefineMargin is how close to the fastest median a contender of a
	// choice must be after the rounds to race Rounds more among the
	// close ones.
	RefineMargin = 0.10
	// floorTimes is how many times the floor (an empty bracket) is timed.
	floorTimes = 3
	// floorFactor is how many launch floors a burst lasts at least.
	floorFactor = 20
	// maxBurst bounds a burst's launches.
	maxBurst = 1 << 16
)

// DefaultBracket is the shortest burst a [Tuner] with no Bracket times:
// long enough that a host clock on a shared machine reads rounds within
// a few percent of each other.
const DefaultBracket = 20 * time.Millisecond

// A Timing is one contender's measurement: the time per launch in each
// round, in round order, their median and spread. A contender Screened
// out of the rounds has none: its Median is its calibration's estimate.
type Timing struct {
	Member   string
	Launches int             // per burst
	Rounds   []time.Duration // per launch
	Median   time.Duration
	Spread   float64
	Screened bool
}

// A clock times f, which records launches, from before them to their
// completion: gpu.Stream.Time.
type clock func(f func() error) (time.Duration, error)

// race times each run of runs, named by names, in bursts that last at
// least bracket and floorFactor empty brackets, and returns their
// timings in order. With screen (a choice, not a sweep), a run whose
// burst's calibration says it is over ScreenFactor times slower than the
// fastest's is left out of the rounds, its Timing holding that estimate,
// Screened; and the runs within RefineMargin of the fastest after the
// rounds race Rounds more.
func race(clk clock, names []string, runs []func() error, bracket time.Duration, screen bool) ([]Timing, error) {
	var floors []time.Duration
	for range floorTimes {
		d, err := clk(func() error { return nil })
		if err != nil {
			return nil, err
		}
		floors = append(floors, d)
	}
	bracket = max(bracket, floorFactor*median(floors))
	ts := make([]Timing, len(runs))
	fastest := time.Duration(-1)
	for i, run := range runs {
		n, est, err := burstSize(clk, run, bracket)
		if err != nil {
			return nil, err
		}
		ts[i] = Timing{Member: names[i], Launches: n, Median: est}
		if fastest < 0 || est < fastest {
			fastest = est
		}
	}
	var timed []int
	for i := range ts {
		if screen && float64(ts[i].Median) > ScreenFactor*float64(fastest) {
			// One slow burst may be the machine's, not the contender's:
			// a second one confirms it before the contender is left out.
			d, err := clk(burst(runs[i], ts[i].Launches))
			if err != nil {
				return nil, err
			}
			ts[i].Median = min(ts[i].Median, d/time.Duration(ts[i].Launches))
			ts[i].Screened = float64(ts[i].Median) > ScreenFactor*float64(fastest)
		}
		if !ts[i].Screened {
			timed = append(timed, i)
		}
	}
	if screen && len(timed) == 1 {
		return ts, nil // the others are over ScreenFactor slower: no round can change the order
	}
	if err := rounds(clk, runs, ts, timed); err != nil {
		return nil, err
	}
	if !screen {
		return ts, nil
	}
	// A close contest is run again: the contenders within RefineMargin
	// of the fastest race five more rounds among themselves, so that
	// the noise of five rounds does not decide between near equals.
	var near []int
	for _, i := range timed {
		if float64(ts[i].Median) <= (1+RefineMargin)*float64(fastestMedian(ts, timed)) {
			near = append(near, i)
		}
	}
	if len(near) > 1 {
		if err := rounds(clk, runs, ts, near); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// rounds times the contenders which of ts in Rounds interleaved rounds,
// each round starting one later, adding to their rounds and setting
// their medians and spreads.
func rounds(clk clock, runs []func() error, ts []Timing, which []int) error {
	for r := range Rounds {
		for j := range which {
			i := which[(j+r)%len(which)]
			d, err := clk(burst(runs[i], ts[i].Launches))
			if err != nil {
				return err
			}
			ts[i].Rounds = append(ts[i].Rounds, d/time.Duration(ts[i].Launches))
		}
	}
	for _, i := range which {
		ts[i].Median = median(ts[i].Rounds)
		ts[i].Spread = spread(ts[i].Rounds)
	}
	return nil
}

// fastestMedian returns the least median among which of ts.
func fastestMedian(ts []Timing, which []int) time.Duration {
	m := ts[which[0]].Median
	for _, i := range which {
		m = min(m, ts[i].Median)
	}
	return m
}

// burstSize warms run up (its first launch compiles and fills caches)
// and returns how many launches last at least bracket, and the time per
// launch of that burst. A warm-up that lasts four brackets is taken as
// the burst of one launch.
func burstSize(clk clock, run func() error, bracket time.Duration) (int, time.Duration, error) {
	d, err := clk(run)
	if err != nil {
		return 0, 0, err
	}
	if d >= 4*bracket {
		return 1, d, nil
	}
	n := 1
	for {
		d, err := clk(burst(run, n))
		if err != nil {
			return 0, 0, err
		}
		if d >= bracket || n >= maxBurst {
			return n, d / time.Duration(n), nil
		}
		// Aim a fifth past the bracket, growing at least twofold.
		grow := 2.0
		if d > 0 {
			grow = max(grow, 1.2*float64(bracket)/float64(d))
		}
		n = min(int(float64(n)*grow), maxBurst)
	}
}

// burst returns a function that runs run n times.
func burst(run func() error, n int) func() error {
	return func() error {
		for range n {
			if err := run(); err != nil {
				return err
			}
		}
		return nil
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// spread returns the range of the middle rounds (all but the fastest and
// the slowest, of five or more; all but the fastest and slowest fifth of
// more) over their median.
func spread(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) >= 5 {
		cut := len(s) / 5
		s = s[cut : len(s)-cut]
	}
	m := median(s)
	if m <= 0 {
		return 0
	}
	return float64(s[len(s)-1]-s[0]) / float64(m)
}

// winner returns the index of the fastest median among ts, preferring
// the earliest within TieMargin of it, the members it ties (the winner
// first; nil when none), and its margin: the runner-up's median over its
// own, less one (0 for one contender).
func winner(ts []Timing) (best int, ties []string, margin float64) {
	fastest := 0
	for i, t := range ts {
		if t.Median < ts[fastest].Median {
			fastest = i
		}
	}
	// A screened contender is over ScreenFactor behind: it neither wins
	// nor ties.
	limit := float64(ts[fastest].Median) * (1 + TieMargin)
	best = -1
	for i, t := range ts {
		if float64(t.Median) < limit {
			if best < 0 {
				best = i
			}
			ties = append(ties, t.Member)
		}
	}
	if len(ties) < 2 {
		ties = nil
	}
	if r := runnerUp(ts, best); r >= 0 && ts[best].Median > 0 {
		margin = float64(ts[r].Median)/float64(ts[best].Median) - 1
	}
	return best, ties, margin
}

// runnerUp returns the index of the fastest timing but best's; -1 when
// there is none.
func runnerUp(ts []Timing, best int) int {
	r := -1
	for i, t := range ts {
		if i != best && (r < 0 || t.Median < ts[r].Median) {
			r = i
		}
	}
	return r
}
