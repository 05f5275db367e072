package tunebench

import (
	"math"
	"testing"
	"time"
)

// TestSummarize checks the summary's counts and geometric means on rows
// whose timings the test states.
func TestSummarize(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	rows := []Row{
		{Tuned: "p.A", Best: "p.A", Sweep: map[string]time.Duration{"p.A": ms(1), "p.B": ms(2), "p.C": ms(4)}, Cost: ms(10)},
		{Tuned: "p.A", Best: "p.B", Sweep: map[string]time.Duration{"p.A": ms(2.2), "p.B": ms(2), "p.C": ms(1)}, Cost: ms(20)}, // 10% off the sweep's p.B; p.C unseen by the tuner is best
		{Tuned: "p.C", Best: "p.C", Sweep: map[string]time.Duration{"p.A": ms(8), "p.C": ms(1)}, Cost: ms(30)},                 // p.B did not survive
	}
	rows[1].Best = "p.C"
	s := Summarize(rows)
	if s.Shapes != 3 || s.Within != 2 || s.Cost != ms(60) {
		t.Errorf("summary %+v; want 3 shapes, 2 within 5%%, 60ms", s)
	}
	// p.B misses a shape; of p.A (1, 2.2, 8) and p.C (4, 1, 1), p.C's
	// geometric mean is the least.
	tuned := math.Cbrt(1 * 2.2 * 1)
	if want := math.Cbrt(4*1*1) / tuned; s.Fixed != "p.C" || math.Abs(s.FixedOverTuned-want) > 1e-9 {
		t.Errorf("fixed %s over tuned %.4f; want p.C, %.4f", s.Fixed, s.FixedOverTuned, want)
	}
	if r := rows[1].Ratio(); math.Abs(r-2.2) > 1e-9 {
		t.Errorf("ratio %.3f, want 2.2 (p.A's 2.2ms over p.C's 1ms)", r)
	}
}
