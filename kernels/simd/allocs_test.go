package simd

import "runtime"

// allocsPerCall is the mallocs a call of f makes at GOMAXPROCS p once
// warmed up, on average. It counts them itself rather than through
// testing.AllocsPerRun, which runs at GOMAXPROCS 1 whatever is asked.
func allocsPerCall(p int, f func()) uint64 {
	const warm, runs = 10, 50
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
	for range warm {
		f() // fills the pools with a buffer for each goroutine
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.Mallocs - before.Mallocs) / runs
}

// allocsAllowed is what a call on p goroutines may allocate: nothing
// on one; on more, the call's state and each goroutine's start (2 +
// p-1), with room for what the runtime allocates now and then to start
// a goroutine or park one when its caches are empty.
func allocsAllowed(p int) uint64 {
	if p == 1 {
		return 0
	}
	return 2 * uint64(p)
}
