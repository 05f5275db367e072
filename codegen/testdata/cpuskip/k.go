// Package cpuskip has a kernel that the Go lowering refuses (a break out
// of a loop with a barrier) and one it carries: the build gates' test.
package cpuskip

import "github.com/goxpu/xpu"

// BreakOut leaves a loop with a barrier early, under a uniform condition.
//
//xpu:kernel block=64
func BreakOut(t xpu.Thread, out []uint32, n uint32) {
	for i := uint32(0); i < 4; i++ {
		if i == n {
			break
		}
		t.Barrier()
	}
	out[t.GlobalX()] = n
}

// Fill writes n everywhere.
//
//xpu:kernel block=64
func Fill(t xpu.Thread, out []uint32, n uint32) {
	out[t.GlobalX()] = n
}
