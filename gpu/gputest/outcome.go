package gputest

import (
	"time"

	"github.com/goxpu/xpu/gpu"
)

// Status is how a case ended on a device.
type Status string

const (
	Pass     Status = "pass"      // the device matched the reference
	Fail     Status = "fail"      // it did not, and no known bug explains it
	KnownBug Status = "known-bug" // it did not, as the case's known bug on this backend says
	FixedBug Status = "fixed-bug" // it matched, but is marked with a known bug: remove the mark
)

// Outcome is the result of one case on a device, for programs that run
// a suite outside `go test` (the browser demo). Check is the test's form
// of the same judgement.
type Outcome struct {
	Case    string        `json:"case"`
	Status  Status        `json:"status"`
	Known   string        `json:"known,omitempty"` // the known bug, when marked
	Error   string        `json:"error,omitempty"` // the mismatches or the failure
	Elapsed time.Duration `json:"elapsed_ns"`
}

// OK reports whether the outcome fails no run: a pass, or a failure its
// known bug explains.
func (o Outcome) OK() bool { return o.Status == Pass || o.Status == KnownBug }

// RunAll runs every case of cases on d with inputs made from seed, in
// order, and returns their outcomes. It calls each, when not nil, with
// every outcome as soon as it is known. It never stops at a failure.
func RunAll(d *gpu.Device, cases []*Case, seed uint64, each func(Outcome)) []Outcome {
	var outs []Outcome
	for _, c := range cases {
		o := RunCase(d, c, seed)
		if each != nil {
			each(o)
		}
		outs = append(outs, o)
	}
	return outs
}

// RunCase runs c on d with inputs made from seed (see [Run]) and judges
// the result against the case's known bug on d's backend.
func RunCase(d *gpu.Device, c *Case, seed uint64) Outcome {
	start := time.Now()
	err := Run(d, c, seed)
	o := Outcome{Case: c.Name(), Known: c.Known[d.Backend()], Elapsed: time.Since(start)}
	switch {
	case err != nil && o.Known != "":
		o.Status, o.Error = KnownBug, err.Error()
	case err != nil:
		o.Status, o.Error = Fail, err.Error()
	case o.Known != "":
		o.Status = FixedBug
	default:
		o.Status = Pass
	}
	return o
}
