//go:build race

package matmul_test

// underRace is true in a test binary built with the race detector, where
// the reference runner's goroutine per work-item runs some ten times
// slower: TestKernels checks matmultest.RaceCases alone there.
const underRace = true
