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
	// stored: the spread of a contender is the range of its middle three
	// rounds over their median. A measurement whose winner or runner-up
	// spreads more is used for the process and not stored.
	MaxSpread = 0.10
	// floorTimes is how many times the floor (an empty bracket) is timed.
	floorTimes = 3
	// floorFactor is how many launch floors a burst lasts at least.
	floorFactor = 20
	// maxBurst bounds a burst's launches.
	maxBurst = 1 << 16
)

// DefaultBracket is the shortest burst a [Tuner] with no Bracket times.
const DefaultBracket = 5 * time.Millisecond

// A Timing is one contender's measurement: the time per launch in each
// round, in round order, their median and spread.
type Timing struct {
	Member   string
	Launches int             // per burst
	Rounds   []time.Duration // per launch
	Median   time.Duration
	Spread   float64
}

// A clock times f, which records launches, from before them to their
// completion: gpu.Stream.Time.
type clock func(f func() error) (time.Duration, error)

// race times each run of runs, named by names, in bursts that last at
// least bracket and floorFactor empty brackets, and returns their
// timings in order.
func race(clk clock, names []string, runs []func() error, bracket time.Duration) ([]Timing, error) {
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
	for i, run := range runs {
		n, err := burstSize(clk, run, bracket)
		if err != nil {
			return nil, err
		}
		ts[i] = Timing{Member: names[i], Launches: n, Rounds: make([]time.Duration, Rounds)}
	}
	for r := range Rounds {
		for j := range runs {
			i := (j + r) % len(runs) // each round starts one later
			d, err := clk(burst(runs[i], ts[i].Launches))
			if err != nil {
				return nil, err
			}
			ts[i].Rounds[r] = d / time.Duration(ts[i].Launches)
		}
	}
	for i := range ts {
		ts[i].Median = median(ts[i].Rounds)
		ts[i].Spread = spread(ts[i].Rounds)
	}
	return ts, nil
}

// burstSize warms run up (its first launch compiles and fills caches)
// and returns how many launches last at least bracket.
func burstSize(clk clock, run func() error, bracket time.Duration) (int, error) {
	if _, err := clk(run); err != nil {
		return 0, err
	}
	n := 1
	for n < maxBurst {
		d, err := clk(burst(run, n))
		if err != nil {
			return 0, err
		}
		if d >= bracket {
			break
		}
		// Aim a fifth past the bracket, growing at least twofold.
		grow := 2.0
		if d > 0 {
			grow = max(grow, 1.2*float64(bracket)/float64(d))
		}
		n = min(int(float64(n)*grow), maxBurst)
	}
	return n, nil
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
// the slowest, of five or more) over their median.
func spread(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) >= 5 {
		s = s[1 : len(s)-1]
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
