// Package wave is the wave suite of xpu: kernels that run every wave verb
// (sums, minima, maxima, scans, ballots, votes, broadcasts and shuffles)
// on int32, uint32 and float32 operands at declared widths of 4, 8, 16, 32
// and 64 lanes and at the device's own width, in blocks whose last wave is
// partial, and a table of cases that compares each backend with the
// reference runner told the backend's wave width; and block reductions
// written with wave sums and with shared memory only, which the suite
// checks and the benchmarks compare. Its cases run on package gputest's
// harness (gputest.Check), as the conformance suite's do.
package wave

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
