package xpu_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
)

// waveSumOf and syncBlock meet the other work-items inside a device
// function, as CUDA's warpReduceSum and blockReduceSum do.
//
//go:noinline
func waveSumOf(t xpu.Thread, v uint32) uint32 { return xpu.WaveSum(t, v) }

//go:noinline
func syncBlock(t xpu.Thread) { t.Barrier() }

func verbFromTwoCalls(t xpu.Thread, out []uint32) {
	if t.LocalX()%2 == 1 {
		out[t.GlobalX()] = waveSumOf(t, 1) // non-uniform: the generator refuses it
	} else {
		out[t.GlobalX()] = waveSumOf(t, 2) // non-uniform: the generator refuses it
	}
}

func barrierFromTwoCalls(t xpu.Thread, out []uint32) {
	if t.LocalX() < 16 {
		syncBlock(t) // non-uniform: the generator refuses it
	} else {
		syncBlock(t) // non-uniform: the generator refuses it
	}
	out[t.GlobalX()] = 1
}

func verbFromOneCall(t xpu.Thread, out []uint32) {
	for range 3 {
		out[t.GlobalX()] += waveSumOf(t, 1)
		syncBlock(t)
	}
}

// TestCallSitesAreMeetingPoints: a verb or barrier in a device function
// is a different meeting point at each call, as the generator inlines
// it: lanes that reach it through different calls are refused by name;
// one call reached in a loop is one meeting point.
func TestCallSitesAreMeetingPoints(t *testing.T) {
	cfg := xpu.Config{Groups: xpu.Dim3{X: 2}, Block: xpu.Dim3{X: 32}, WaveWidth: 8}
	for name, c := range map[string]struct {
		k    func(xpu.Thread, []uint32)
		rule string
	}{"verb": {verbFromTwoCalls, "[xpu-wave-nonuniform]"}, "barrier": {barrierFromTwoCalls, "[xpu-barrier-nonuniform]"}} {
		err := xpu.Run(cfg, c.k, make([]uint32, 64))
		if !errors.Is(err, xpu.ErrRun) || !strings.Contains(fmt.Sprint(err), c.rule) {
			t.Errorf("%s from two calls: err = %v, want ErrRun naming %s", name, err, c.rule)
		}
	}
	out := make([]uint32, 64)
	if err := xpu.Run(cfg, verbFromOneCall, out); err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if v != 3*8 {
			t.Fatalf("out[%d] = %d, want three sums of 8 lanes", i, v)
		}
	}
}
