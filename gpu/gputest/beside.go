package gputest

import (
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu"
)

// Beside times runs, each recording launches on s, in the same rounds of
// b's loop, so that a kernel and its reference point (a copy of the same
// bytes, say) share the machine's state; it returns the device time of
// each, summed over the rounds (gpu.Stream.Time). Each runs once first,
// synced, so that compiling and first touches are not timed.
func Beside(b *testing.B, s *gpu.Stream, runs ...func() error) []time.Duration {
	b.Helper()
	for _, run := range runs {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Sync(); err != nil {
		b.Fatal(err)
	}
	total := make([]time.Duration, len(runs))
	for b.Loop() {
		for i, run := range runs {
			t, err := s.Time(run)
			if err != nil {
				b.Fatal(err)
			}
			total[i] += t
		}
	}
	return total
}
