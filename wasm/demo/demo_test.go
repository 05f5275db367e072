package main

import (
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
	html := renderHTML(r)
	for _, want := range []string{"Saxpy", "Benchmark", "GB/s", `class="case pass"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if text, class := status(r); class != "ok" || !strings.Contains(text, "cpu") {
		t.Errorf("status %q (%s)", text, class)
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
