//go:build race

package blas_test

// underRace is true in a test binary built with the race detector, where
// the reference runner's goroutine per work-item runs some ten times
// slower: the tests check the smaller shapes alone there.
const underRace = true
