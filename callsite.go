package xpu

// This file tells apart the places a work-item meets the others: a
// barrier or wave verb in a device function is a different meeting point
// at each call of the function, as the generator's inlining makes it.

import "runtime"

// callPath returns the return addresses of the work-item's goroutine
// above its first skip frames, mixed into one value: equal for two
// waits exactly when they are the same call reached through the same
// calls (up to a depth of 64 frames).
func callPath(skip int) uintptr {
	var pcs [64]uintptr
	h := uintptr(14695981039346656037 & uint64(^uintptr(0)))
	for _, pc := range pcs[:runtime.Callers(skip+1, pcs[:])] {
		h = (h ^ pc) * 1099511628211
	}
	return h
}
