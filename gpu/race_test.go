//go:build race

package gpu_test

// underRace is true in a test binary built with the race detector, which
// allocates where the program would not.
const underRace = true
