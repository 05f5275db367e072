package xpu_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
)

// The tests of this file check that a block run as a loop (the default),
// as goroutines from the start (Config.Goroutines) and as a loop of calls
// of the kernel bound to its arguments (RunBound) give the same results
// and the same failures, on random inputs.

// hashWork is barrier-free: it mixes its inputs, counts through an
// atomic and divides by an input, so that a zero input faults.
func hashWork(t xpu.Thread, out, in, count []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	h := in[i]*0x9e3779b9 ^ t.LocalIndex()<<16 ^ t.GroupX()
	for k := range in[i] % 7 {
		h = h<<5 ^ h>>3 ^ in[(i+k)%n]
	}
	old := xpu.AtomicAdd(&count[in[i]%uint32(len(count))], 1)
	out[i] = h / in[i] // a zero input: division by zero
	out[n+i] = old
}

// barrierFrom waits at a barrier from LocalIndex k on: uniform only for k 0.
func barrierFrom(t xpu.Thread, out, in []uint32, k uint32) {
	s := xpu.Shared[uint32](t, 64)
	l := t.LocalIndex()
	s[l] = in[t.GlobalX()]
	if l >= k {
		t.Barrier()
	}
	out[t.GlobalX()] = s[(l+1)%64]
}

// barrierOnly waits at a barrier at LocalIndex k alone.
func barrierOnly(t xpu.Thread, out, in []uint32, k uint32) {
	if t.LocalIndex() == k {
		t.Barrier()
	}
	out[t.GlobalX()] = in[t.GlobalX()] + 1
}

// waveFrom sums a wave from LocalIndex k on: uniform only for k 0.
func waveFrom(t xpu.Thread, out, in []uint32, k uint32) {
	v := in[t.GlobalX()]
	if t.LocalIndex() >= k {
		v = xpu.WaveSum(t, v)
	}
	out[t.GlobalX()] = v
}

// racyShift reads the element of shared memory that LocalIndex+k writes,
// with no barrier: a race for k not 0.
func racyShift(t xpu.Thread, out, in []uint32, k uint32) {
	s := xpu.Shared[uint32](t, 64)
	l := t.LocalIndex()
	s[l] = in[t.GlobalX()]
	out[t.GlobalX()] = s[(l+k)%64]
}

// sharedLate requests shared memory only from LocalIndex k on, in a
// device function.
func sharedLate(t xpu.Thread, out, in []uint32, k uint32) {
	if t.LocalIndex() >= k {
		out[t.GlobalX()] = lateShared(t)[0] + in[t.GlobalX()]
	}
}

func lateShared(t xpu.Thread) []uint32 { return xpu.Shared[uint32](t, 4) }

// runBoth runs kernel as a loop, as goroutines and bound, on copies of
// args, and fails t unless all give the same error and the same buffers.
func runBoth(t *testing.T, name string, cfg xpu.Config, kernel any, args ...any) {
	t.Helper()
	ways := []string{"the loop", "the goroutines", "the bound loop"}
	var errs [3]string
	var outs [3][]any
	for i := range ways {
		c := cfg
		c.Goroutines = i == 1
		in := make([]any, len(args))
		for j, a := range args {
			in[j] = a
			if s, ok := a.([]uint32); ok {
				in[j] = slices.Clone(s)
			}
		}
		if i == 2 {
			errs[i] = fmt.Sprint(xpu.RunBound(c, kernel, bind(kernel, in), in...))
		} else {
			errs[i] = fmt.Sprint(xpu.Run(c, kernel, in...))
		}
		outs[i] = in
	}
	for i := 1; i < len(ways); i++ {
		if errs[0] != errs[i] {
			t.Errorf("%s: %s fails with\n\t%s\n%s with\n\t%s", name, ways[0], errs[0], ways[i], errs[i])
		}
		for j := range args {
			if a, ok := outs[0][j].([]uint32); ok && !slices.Equal(a, outs[i][j].([]uint32)) {
				t.Errorf("%s: argument %d differs between %s and %s", name, j+1, ways[0], ways[i])
			}
		}
	}
}

// bind binds the kernels of this file to args, as a generated binder
// does.
func bind(kernel any, args []any) func(xpu.Thread) {
	switch k := kernel.(type) {
	case func(xpu.Thread, []uint32, []uint32, uint32):
		out, in, n := args[0].([]uint32), args[1].([]uint32), args[2].(uint32)
		return func(t xpu.Thread) { k(t, out, in, n) }
	case func(xpu.Thread, []uint32, []uint32, []uint32, uint32):
		out, in, count, n := args[0].([]uint32), args[1].([]uint32), args[2].([]uint32), args[3].(uint32)
		return func(t xpu.Thread) { k(t, out, in, count, n) }
	}
	panic(fmt.Sprintf("bind: a kernel of type %T", kernel))
}

// randomWords returns n random words, a few of them zero.
func randomWords(r *rand.Rand, n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		if s[i] = r.Uint32(); r.IntN(400) == 0 {
			s[i] = 0
		}
	}
	return s
}

// TestLoopSameAsGoroutines runs kernels that fault at random work-items,
// wait at barriers or wave verbs that only some work-items reach, race on
// shared memory or request it where they must not, as a loop, as
// goroutines and bound, with the race check on and off: the errors must
// read the same and the buffers hold the same.
func TestLoopSameAsGoroutines(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 0))
	for round := range 20 {
		// With the race check off, blocks run at once and the first
		// failure is the first in time: one block, so that it is one.
		for _, rc := range []xpu.RaceCheck{xpu.RaceCheckOn, xpu.RaceCheckOff} {
			groups := uint32(1 + r.IntN(3))
			if rc == xpu.RaceCheckOff {
				groups = 1
			}
			n := groups * 64
			cfg := xpu.Config{Groups: xpu.Dim3{X: groups}, Block: xpu.Dim3{X: 64}, WaveWidth: []uint32{4, 8, 32}[r.IntN(3)], RaceCheck: rc}
			k := uint32(r.IntN(64))
			if r.IntN(4) == 0 {
				k = 0
			}
			in := randomWords(r, int(n))
			tag := fmt.Sprintf("round %d, race check %v, k %d", round, rc == xpu.RaceCheckOn, k)
			runBoth(t, "hashWork, "+tag, cfg, hashWork, make([]uint32, 2*n), in, make([]uint32, 5), n-uint32(r.IntN(5)))
			for name, kernel := range map[string]func(xpu.Thread, []uint32, []uint32, uint32){
				"barrierFrom": barrierFrom, "barrierOnly": barrierOnly, "waveFrom": waveFrom, "racyShift": racyShift, "sharedLate": sharedLate,
			} {
				runBoth(t, name+", "+tag, cfg, kernel, make([]uint32, n), in, k)
			}
		}
	}
}

// TestLoopRefusals checks that the loop refuses what the goroutines do,
// by name, where a kernel's first wait comes after some work-items ended.
func TestLoopRefusals(t *testing.T) {
	cfg := xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 64}, WaveWidth: 8}
	in := make([]uint32, 64)
	for _, c := range []struct {
		kernel func(xpu.Thread, []uint32, []uint32, uint32)
		want   []string
	}{
		{barrierOnly, []string{"[xpu-barrier-nonuniform] the barrier at loop_test.go:", "is reached by some work-items but not by local {0 0 0}, which returned"}},
		{barrierFrom, []string{"[xpu-barrier-nonuniform] the barrier at loop_test.go:", "is reached by some work-items but not by local {0 0 0}, which returned"}},
		{waveFrom, []string{"[xpu-wave-nonuniform] a wave verb is reached by some lanes of a wave but not by local {0 0 0}, which returned"}},
		{sharedLate, []string{"local {5 0 0}: [xpu-shared-placement] xpu.Shared at loop_test.go:", "is called in github.com/goxpu/xpu_test.lateShared"}},
	} {
		for _, rc := range []xpu.RaceCheck{xpu.RaceCheckOn, xpu.RaceCheckOff} {
			cfg.RaceCheck = rc
			err := xpu.Run(cfg, c.kernel, make([]uint32, 64), in, uint32(5))
			for _, w := range c.want {
				if !strings.Contains(fmt.Sprint(err), w) {
					t.Errorf("err = %v\nwant it to say %s", err, w)
				}
			}
		}
	}
}

// TestRunBoundRefusals checks that RunBound refuses a call it cannot
// make as Run does, and one without a call.
func TestRunBoundRefusals(t *testing.T) {
	cfg := xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 64}}
	out, in := make([]uint32, 64), make([]uint32, 64)
	call := bind(barrierOnly, []any{out, in, uint32(5)})
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"no call", xpu.RunBound(cfg, barrierOnly, nil, out, in, uint32(5)), "RunBound of github.com/goxpu/xpu_test.barrierOnly without a call"},
		{"an argument short", xpu.RunBound(cfg, barrierOnly, call, out, in), "kernel takes 3 arguments after the Thread, got 2"},
		{"a wrong argument", xpu.RunBound(cfg, barrierOnly, call, out, in, int32(5)), "argument 3 is int32, kernel wants uint32"},
		{"no kernel", xpu.RunBound(cfg, nil, call), "kernel is a <nil>, not a function"},
	} {
		if !errors.Is(c.err, xpu.ErrCall) || !strings.Contains(fmt.Sprint(c.err), c.want) {
			t.Errorf("%s: err = %v, want ErrCall saying %q", c.name, c.err, c.want)
		}
	}
}
