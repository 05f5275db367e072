package gputest_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// TestBeside runs Beside in a benchmark of two runs on the CPU backend:
// each runs once to warm up and then once a round, and each gets a time.
func TestBeside(t *testing.T) {
	d, err := gpu.OpenBackend(schema.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	testing.Benchmark(func(b *testing.B) {
		calls := make([]int, 2)
		run := func(i int) func() error { return func() error { calls[i]++; return nil } }
		times := gputest.Beside(b, d.Stream(), run(0), run(1))
		if calls[0] != b.N+1 || calls[1] != b.N+1 || len(times) != 2 || times[0] < 0 || times[1] < 0 {
			t.Errorf("%d rounds: the runs ran %v times, timed %v", b.N, calls, times)
		}
	})
}
