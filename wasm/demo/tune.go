package main

// This file is the demo's tuning step: the tuner chooses a member of the
// SGEMM family of package kernels/matmul for a few shapes on the page's
// device, by measurement, and remembers it for the page's life (a
// browser has no store).

import (
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/tune"
)

// TuneReport is the tuner's choice for one shape.
type TuneReport struct {
	Shape     string   `json:"shape"`
	Key       string   `json:"key"`
	Survivors []string `json:"survivors"`
	Pruned    []string `json:"pruned,omitempty"` // the verdicts on the members pruned
	Chosen    string   `json:"chosen"`
	Source    string   `json:"source"`
	// Medians are the survivors' medians, in microseconds per launch,
	// when the choice was measured.
	Medians map[string]float64 `json:"medians_us,omitempty"`
	Margin  float64            `json:"margin"`
	CostMS  float64            `json:"cost_ms"`
	// Again is where choosing the same shape again came from.
	Again string `json:"again"`
	Error string `json:"error,omitempty"`
}

// tuneShapes are the shapes the demo tunes: small enough for a software
// device.
var tuneShapes = []matmul.Shape{{M: 64, N: 64, K: 64}, {M: 100, N: 256, K: 50}}

// tuneOn chooses a member of matmul.Family for each of tuneShapes on d.
func tuneOn(d *gpu.Device) []TuneReport {
	tu := &tune.Tuner{}
	var rs []TuneReport
	for _, p := range tuneShapes {
		r := TuneReport{Shape: p.String()}
		c, err := tune.Choose(tu, d.Stream(), matmul.Family, p)
		if err != nil {
			r.Error = err.Error()
			rs = append(rs, r)
			continue
		}
		r.Key, r.Survivors, r.Chosen, r.Source = string(c.Key), tune.Shorts(c.Survivors), tune.Short(c.Chosen), c.Source.String()
		r.Margin, r.CostMS = c.Margin, float64(c.Cost)/float64(time.Millisecond)
		for _, v := range c.Pruned {
			r.Pruned = append(r.Pruned, v.String())
		}
		for _, t := range c.Timings {
			if r.Medians == nil {
				r.Medians = map[string]float64{}
			}
			r.Medians[tune.Short(t.Member)] = float64(t.Median) / float64(time.Microsecond)
		}
		if again, err := tune.Choose(tu, d.Stream(), matmul.Family, p); err != nil {
			r.Error = err.Error()
		} else {
			r.Again = again.Source.String()
		}
		rs = append(rs, r)
	}
	return rs
}
