package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/bench/devicebench"
)

// TestRunCPU runs the demo on the CPU backend: every case passes, the
// benchmarks report, and the page's HTML shows them.
func TestRunCPU(t *testing.T) {
	t.Setenv("XPU_BACKEND", "cpu")
	shows := 0
	r := run(func(*Report) { shows++ })
	if !r.OK() {
		t.Fatalf("the demo failed on the CPU backend: %s", r.Error)
	}
	if r.Backend != "cpu" || len(r.Suites) == 0 || len(r.Bench) != len(devicebench.Benchmarks()) {
		t.Fatalf("report: backend %q, %d suites, %d benchmarks", r.Backend, len(r.Suites), len(r.Bench))
	}
	if shows < len(r.Suites[0].Outcomes) {
		t.Errorf("shown %d times for %d outcomes", shows, len(r.Suites[0].Outcomes))
	}
	checkTune(t, r.Tune)
	html := renderHTML(r)
	for _, want := range []string{"Saxpy", "Benchmark", "GB/s", `class="case pass"`, "Tuning", "M=64,N=64,K=64"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if text, class := status(r); class != "ok" || !strings.Contains(text, "cpu") {
		t.Errorf("status %q (%s)", text, class)
	}
}

// checkTune checks the tuning step's report: each shape chosen by
// measurement among survivors, with a median per survivor timed, and
// remembered when chosen again.
func checkTune(t *testing.T, rs []TuneReport) {
	t.Helper()
	if len(rs) != len(tuneShapes) {
		t.Fatalf("%d tuning reports for %d shapes", len(rs), len(tuneShapes))
	}
	for _, r := range rs {
		if r.Error != "" || r.Source != "measured" || !slices.Contains(r.Survivors, r.Chosen) || r.Again != "remembered" {
			t.Errorf("tuning %s: %+v", r.Shape, r)
		}
		for s, m := range r.Medians {
			if !(m > 0) || !slices.Contains(r.Survivors, s) {
				t.Errorf("tuning %s: median of %s is %g µs", r.Shape, s, m)
			}
		}
	}
}

func TestStatusFallback(t *testing.T) {
	r := &Report{Backend: "cpu", Fallback: "navigator.gpu is absent", Done: true}
	if text, class := status(r); class != "warn" || !strings.Contains(text, "No WebGPU") {
		t.Errorf("status %q (%s)", text, class)
	}
	r = &Report{Error: "no backend", Done: true}
	if text, class := status(r); class != "bad" || !strings.Contains(text, "no backend") {
		t.Errorf("status %q (%s)", text, class)
	}
}
