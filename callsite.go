package xpu

// This file tells apart the places a work-item meets the others: a
// barrier or wave verb in a device function is a different meeting point
// at each call of the function, as the generator's inlining makes it.

import (
	"runtime"
	"strings"
)

// callPath returns the calls from the kernel function down to the first
// frame outside package xpu above the caller's skip frames, mixed into
// one value: equal for two waits
// exactly when they are the same call reached through the same calls (up
// to a depth of 64 frames). The frames below the kernel, the runner's,
// are left out: work-items start on goroutines of their own.
func (l *launch) callPath(skip int) uintptr {
	var pcs [64]uintptr
	h := uintptr(14695981039346656037 & uint64(^uintptr(0)))
	inside := true // in package xpu's own frames: a verb's internals
	for _, pc := range pcs[:runtime.Callers(skip+1, pcs[:])] {
		f := l.funcAt(pc)
		if inside = inside && strings.HasPrefix(f, "github.com/goxpu/xpu."); inside {
			continue
		}
		h = (h ^ pc) * 1099511628211
		if f == l.name {
			break
		}
	}
	return h
}
