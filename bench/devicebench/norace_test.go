//go:build !race

package devicebench_test

// underRace: the test binary runs under Go's race detector.
const underRace = false
