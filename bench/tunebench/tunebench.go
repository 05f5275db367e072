// Package tunebench measures the tuner against an exhaustive sweep: for a
// family over a set of shapes on one device, the member the tuner
// chooses, timed again beside every other member in a sweep of its own,
// against the sweep's fastest member and against the best single member
// fixed across every shape. Its command (cmd/tunebench) prints the table
// docs/standing.md records.
package tunebench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/tune"
)

// A Row is one shape's result.
type Row struct {
	Shape     string
	Key       tune.Key
	Survivors int
	// Tuned is the member the tuner chose, Cost what choosing took
	// (filter, warm-up, bursts and rounds).
	Tuned string
	Cost  time.Duration
	Ties  []string
	// Sweep is every survivor's median in the sweep after the choice;
	// Best the fastest of them.
	Sweep map[string]time.Duration
	Best  string
}

// Ratio returns the sweep's time of the tuned member over the best's:
// 1 when the tuner found the fastest, 1.05 when it is 5% slower.
func (r Row) Ratio() float64 {
	return float64(r.Sweep[r.Tuned]) / float64(r.Sweep[r.Best])
}

// Compare chooses a member of f for each of shapes on d with a tuner of
// its own (no store: every shape is measured), then sweeps every
// survivor at that shape sweeps times, taking each survivor's median
// over all the sweeps' rounds, so that the reference is steadier than
// the choice it judges; each, when not nil, is given every row as it is
// made.
func Compare[P any](d *gpu.Device, f *tune.Family[P], shapes []P, sweeps int, each func(Row)) ([]Row, error) {
	var rows []Row
	s := d.Stream()
	for _, p := range shapes {
		c, err := tune.Choose(&tune.Tuner{}, s, f, p)
		if err != nil {
			return nil, err
		}
		r := Row{Shape: fmt.Sprintf("%v", p), Key: c.Key, Survivors: len(c.Survivors), Tuned: c.Chosen, Cost: c.Cost, Ties: c.Ties,
			Sweep: map[string]time.Duration{}}
		rounds := map[string][]time.Duration{}
		for range max(sweeps, 1) {
			sw, err := tune.Sweep(&tune.Tuner{}, s, f, p)
			if err != nil {
				return nil, err
			}
			if sw.Source != tune.Measured { // one survivor
				rounds[sw.Chosen] = []time.Duration{1}
				break
			}
			for _, t := range sw.Timings {
				rounds[t.Member] = append(rounds[t.Member], t.Rounds...)
			}
		}
		for m, rs := range rounds {
			r.Sweep[m] = median(rs)
			if r.Best == "" || r.Sweep[m] < r.Sweep[r.Best] || r.Sweep[m] == r.Sweep[r.Best] && m < r.Best {
				r.Best = m
			}
		}
		rows = append(rows, r)
		if each != nil {
			each(r)
		}
	}
	return rows, nil
}

// A Summary is the rows' verdict against the bounds.
type Summary struct {
	Shapes int
	// Within is how many shapes' tuned member is within 5% of the
	// sweep's best.
	Within int
	// Fixed is the member whose geometric mean over every shape is the
	// least, among those that survive at every shape; FixedOverTuned its
	// geometric mean over the tuned members' (above 1: the tuner beats
	// every fixed member).
	Fixed          string
	FixedOverTuned float64
	// Cost is the tuning cost of every shape together.
	Cost time.Duration
}

// Summarize returns the summary of rows.
func Summarize(rows []Row) Summary {
	sum := Summary{Shapes: len(rows)}
	var tuned float64
	for _, r := range rows {
		if r.Ratio() <= 1.05 {
			sum.Within++
		}
		tuned += math.Log(float64(r.Sweep[r.Tuned]))
		sum.Cost += r.Cost
	}
	best := math.Inf(1)
	for m := range rows[0].Sweep {
		var g float64
		every := true
		for _, r := range rows {
			t, ok := r.Sweep[m]
			if !ok {
				every = false
				break
			}
			g += math.Log(float64(t))
		}
		if every && (g < best || g == best && m < sum.Fixed) {
			best, sum.Fixed = g, m
		}
	}
	if sum.Fixed != "" {
		sum.FixedOverTuned = math.Exp((best - tuned) / float64(len(rows)))
	}
	return sum
}

// Print writes rows and their summary as markdown tables.
func Print(w io.Writer, device string, rows []Row) {
	fmt.Fprintf(w, "%s\n\n| shape | bucket | survivors | tuned | sweep's best | tuned/best | tuning cost |\n|---|---|---|---|---|---|---|\n", device)
	for _, r := range rows {
		tuned := tune.Short(r.Tuned)
		if len(r.Ties) > 0 {
			tuned += " (tie: " + strings.Join(tune.Shorts(r.Ties), "=") + ")"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s %v | %s %v | %.3f | %v |\n", r.Shape, r.Key, r.Survivors,
			tuned, r.Sweep[r.Tuned].Round(time.Microsecond), tune.Short(r.Best), r.Sweep[r.Best].Round(time.Microsecond), r.Ratio(), r.Cost.Round(time.Millisecond))
	}
	s := Summarize(rows)
	fmt.Fprintf(w, "\nwithin 5%% of the sweep's best: %d of %d shapes (%.0f%%); best fixed member %s: its geometric mean over the tuned one's %.3f; tuning cost %v in all\n",
		s.Within, s.Shapes, 100*float64(s.Within)/float64(s.Shapes), tune.Short(s.Fixed), s.FixedOverTuned, s.Cost.Round(time.Millisecond))
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
