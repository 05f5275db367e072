//go:build !race

package simd

// underRace is true in a test binary built with the race detector (see
// race_test.go).
const underRace = false
