//go:build race

package simd

// underRace is true in a test binary built with the race detector, where
// Sgemm's float64 reference and gonum's run some ten times slower:
// TestSgemm checks each big shape at one pair of transposes per
// goroutine count there, as in short mode; the run without the detector
// checks them all.
const underRace = true
