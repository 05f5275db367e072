//go:build !race

package reduce_test

// underRace is true in a test binary built with the race detector (see
// race_test.go).
const underRace = false
