package corpus

// This file is a replay's report: a verdict per launch and per hold.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// Outcome is what the replay of one launch found.
type Outcome int

const (
	Agree    Outcome = iota // every word the reference wrote is the recorded one (a NaN equals any NaN)
	Held                    // floats differ, within the kernel's hold
	Mismatch                // words differ beyond the hold (ErrMismatch)
	Missing                 // the program does not link the kernel (gpu.ErrNoCode)
	Changed                 // the kernel's code changed since the recording (ErrChanged)
	Failed                  // the file, its arguments or the reference run failed
)

func (o Outcome) String() string {
	if o < Agree || o > Failed {
		return "unknown"
	}
	return [...]string{"ok", "held", "MISMATCH", "MISSING", "CHANGED", "FAILED"}[o]
}

// Verdict is the replay of one recorded launch.
type Verdict struct {
	Path    string // the launch file, relative to the corpus's folder
	Index   int    // the launch's number in its recording
	Kernel  string
	Device  string // the device that ran it
	Outcome Outcome
	ULP     uint64 // the largest float distance within the hold
	Worst   uint64 // the largest beyond it (math.MaxUint64: a NaN against a number)
	Differ  int    // the words beyond the hold, in all buffers
	Diffs   []Diff // the first of them, per buffer
	Err     error  // why the launch failed the replay; nil for Agree and Held
}

// HoldVerdict is the judgement of one hold over the corpus.
type HoldVerdict struct {
	Kernel string
	Hold
	Launches int    // the launches of the kernel compared
	ULP      uint64 // the largest float distance among them within the hold
	Stale    bool   // the corpus needs less than the hold: ULP < Hold.ULP, or no launch of the kernel
}

// Report is the outcome of a replay.
type Report struct {
	Dir      string
	Launches []Verdict
	Holds    []HoldVerdict // sorted by kernel
}

// judge fills r.Holds from the launches' verdicts. A hold whose kernel's
// launches were all refused is not judged stale: the refusals fail the
// replay already.
func (r *Report) judge(holds Holds) {
	for _, k := range holds.kernels() {
		hv := HoldVerdict{Kernel: k, Hold: holds[k]}
		refused := false
		for _, v := range r.Launches {
			switch {
			case v.Kernel != k:
			case v.Outcome == Agree || v.Outcome == Held || v.Outcome == Mismatch:
				hv.Launches++
				hv.ULP = max(hv.ULP, v.ULP)
			default:
				refused = true
			}
		}
		hv.Stale = hv.ULP < hv.Hold.ULP && (hv.Launches > 0 || !refused)
		r.Holds = append(r.Holds, hv)
	}
}

// Err returns nil when every launch agreed with its reference (within
// its kernel's hold) and no hold is stale; otherwise an error naming
// each failure, wrapping [ErrMismatch], [ErrChanged], [ErrStale],
// gpu.ErrNoCode or the failure's own error.
func (r *Report) Err() error {
	var errs []error
	for _, v := range r.Launches {
		if v.Err != nil {
			errs = append(errs, fmt.Errorf("%s (launch %d): %w", v.Path, v.Index, v.Err))
		}
	}
	for _, h := range r.Holds {
		if h.Stale {
			errs = append(errs, fmt.Errorf("kernel %s: %s: %w", h.Kernel, h.staleness(), ErrStale))
		}
	}
	return errors.Join(errs...)
}

// staleness says why a stale hold is stale.
func (h HoldVerdict) staleness() string {
	switch {
	case h.Launches == 0:
		return fmt.Sprintf("held to %d ulp (%s), and the corpus has no launch of it: remove the hold", h.Hold.ULP, h.Why)
	case h.ULP == 0:
		return fmt.Sprintf("held to %d ulp (%s), and its %d launches agree exactly: remove the hold", h.Hold.ULP, h.Why, h.Launches)
	}
	return fmt.Sprintf("held to %d ulp (%s), and its %d launches need %d: tighten the hold", h.Hold.ULP, h.Why, h.Launches, h.ULP)
}

// Print writes the report to w: a line per launch that failed (every
// launch when all is set) with its differences, a line per hold, and a
// summary.
func (r *Report) Print(w io.Writer, all bool) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	count := map[Outcome]int{}
	for _, v := range r.Launches {
		count[v.Outcome]++
		if !all && v.Err == nil {
			continue
		}
		detail := ""
		switch {
		case v.Err != nil && v.Outcome != Mismatch:
			detail = v.Err.Error()
		case v.Outcome == Held, v.Outcome == Mismatch:
			detail = fmt.Sprintf("%d ulp within the hold", v.ULP)
			if v.Differ > 0 {
				detail = fmt.Sprintf("%d words differ beyond the hold", v.Differ)
			}
			switch {
			case v.Worst == math.MaxUint64:
				detail += ", a NaN against a number among them"
			case v.Worst > 0:
				detail += fmt.Sprintf(", floats up to %d ulp apart", v.Worst)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.Outcome, v.Path, v.Kernel, v.Device, detail)
		for _, d := range v.Diffs {
			fmt.Fprintf(tw, "\t\t%s\n", d)
		}
	}
	stale := 0
	for _, h := range r.Holds {
		verdict := fmt.Sprintf("hold\t%s\t%d ulp, needs %d over %d launches", h.Kernel, h.Hold.ULP, h.ULP, h.Launches)
		if h.Stale {
			stale++
			verdict = fmt.Sprintf("STALE\t%s\t%s", h.Kernel, h.staleness())
		}
		fmt.Fprintln(tw, verdict)
	}
	fmt.Fprintf(tw, "%d launches: %d agree, %d within their holds, %d mismatch, %d missing, %d changed, %d failed; %d holds, %d stale\n",
		len(r.Launches), count[Agree], count[Held], count[Mismatch], count[Missing], count[Changed], count[Failed], len(r.Holds), stale)
	return tw.Flush()
}
