//go:build race

package sort_test

// underRace is true in a test binary built with the race detector, where
// the reference runner's goroutine per work-item runs some ten times
// slower: the kernel tests check the smaller lengths alone there.
const underRace = true
