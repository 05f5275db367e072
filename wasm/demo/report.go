package main

import (
	"errors"
	"os"

	"github.com/goxpu/xpu/bench/devicebench"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/kernels/librarytest"
	"github.com/goxpu/xpu/kernels/wave"
	"github.com/goxpu/xpu/schema"
)

// Report is what the demo found, as the page shows it and as the
// browser test reads it (JSON).
type Report struct {
	Backend  schema.Backend       `json:"backend"`            // the device's backend
	Fallback string               `json:"fallback,omitempty"` // why not webgpu, when on another backend
	Device   gpu.Info             `json:"device"`
	Seed     uint64               `json:"seed"`
	Suites   []SuiteReport        `json:"suites"`
	Bench    []devicebench.Result `json:"bench,omitempty"`
	Tune     []TuneReport         `json:"tune,omitempty"`
	Error    string               `json:"error,omitempty"` // what stopped the run
	Done     bool                 `json:"done"`
}

// SuiteReport is one suite's outcomes on the device.
type SuiteReport struct {
	Name     string            `json:"name"`
	Outcomes []gputest.Outcome `json:"outcomes"`
	// Waves says, for each case whose kernel uses waves, the tier and
	// width the device runs it at.
	Waves map[string]WaveReport `json:"waves,omitempty"`
}

// WaveReport is how a wave kernel runs on the device.
type WaveReport struct {
	Tier  schema.Tier `json:"tier"`
	Width uint32      `json:"width"`
}

// OK reports whether the run reached its end with no failing case.
func (r *Report) OK() bool {
	if r.Error != "" || !r.Done {
		return false
	}
	for _, t := range r.Tune {
		if t.Error != "" {
			return false
		}
	}
	for _, s := range r.Suites {
		for _, o := range s.Outcomes {
			if !o.OK() {
				return false
			}
		}
	}
	return true
}

// run opens the device and runs the suites, the benchmark and the
// tuning step, calling show with the report after every step.
func run(show func(*Report)) *Report {
	r := &Report{}
	show(r)
	d, fallback, err := open()
	if err != nil {
		r.Error = err.Error()
		r.Done = true
		return r
	}
	defer d.Close()
	r.Backend, r.Fallback, r.Device = d.Backend(), fallback, d.Info()
	if r.Seed, err = gputest.Seed(); err != nil {
		r.Error = err.Error()
		r.Done = true
		return r
	}
	show(r)
	for _, s := range suites {
		r.Suites = append(r.Suites, SuiteReport{Name: s.name})
		sr := &r.Suites[len(r.Suites)-1]
		for _, c := range s.cases() {
			if w, err := d.KernelWave(c.Kernel); err == nil && w.Tier != "" {
				if sr.Waves == nil {
					sr.Waves = map[string]WaveReport{}
				}
				sr.Waves[c.Name()] = WaveReport{Tier: w.Tier, Width: w.Width}
			}
			sr.Outcomes = append(sr.Outcomes, gputest.RunCase(d, c, r.Seed))
			show(r)
		}
	}
	for _, b := range devicebench.Benchmarks() {
		res, err := b(d)
		if err != nil {
			r.Error = err.Error()
			break
		}
		r.Bench = append(r.Bench, res)
		show(r)
	}
	r.Tune = tuneOn(d)
	r.Done = true
	return r
}

// open opens the device XPU_BACKEND names, or else WebGPU, or else the
// CPU backend, and says why it fell back.
func open() (d *gpu.Device, fallback string, err error) {
	if os.Getenv("XPU_BACKEND") != "" {
		d, err = gpu.Open()
		return d, "", err
	}
	d, err = gpu.OpenBackend("webgpu")
	if err == nil {
		return d, "", nil
	}
	fallback = err.Error()
	d, cerr := gpu.OpenBackend("cpu")
	if cerr != nil {
		return nil, "", errors.Join(err, cerr)
	}
	return d, fallback, nil
}

// suite is a table of cases the demo runs on the device.
type suite struct {
	name  string
	cases func() []*gputest.Case
}

// suites are the suites the demo runs, in order.
var suites = []suite{
	{name: "conformance", cases: conformance.Cases},
	{name: "streams", cases: conformance.StreamCases},
	{name: "wave", cases: wave.Cases},
	{name: "library", cases: libraryCases},
}

// libraryCases are the library's cases at their small shapes: the
// reference runner is slow in a page.
func libraryCases() []*gputest.Case { return librarytest.Cases(true) }
