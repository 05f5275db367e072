//go:build race

package quant_test

// underRace is true in a test binary built with the race detector, where
// the reference runner's goroutine per work-item runs some ten times
// slower: the kernel tests take their smaller sizes there.
const underRace = true
