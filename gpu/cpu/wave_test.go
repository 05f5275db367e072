package cpu

import (
	"github.com/goxpu/xpu/schema"
	"testing"
	"time"
)

// TestWaveZeroWidth calls the wave verbs with a width of 0, which the Go
// lowering never passes but the exported functions accept: they must
// return (a wave of one lane), not step through the block by 0 forever.
func TestWaveZeroWidth(t *testing.T) {
	const n = 8
	x, lane, on := []int32{1, 2, 3, 4, 5, 6, 7, 8}, make([]uint32, n), make([]bool, n)
	for i := range on {
		on[i] = true
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		out := make([]int32, n)
		Wave(schema.WaveSum, x, lane, on, 0, out)
		for i := range out {
			if out[i] != x[i] {
				t.Errorf("sum over a wave of one: out[%d] = %d, want %d", i, out[i], x[i])
			}
		}
		Wave(schema.WaveShuffle, x, lane, on, 0, out)
		WaveBallot(on, on, 0, make([]uint32, n))
		WaveVote(true, on, on, 0, make([]bool, n))
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a wave verb of width 0 did not return within 10s")
	}
}
