package xpu_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
)

// stage is a device function that requests shared memory itself, as the
// generator refuses.
func stage(t xpu.Thread, in []float32, i uint32) float32 {
	s := xpu.Shared[float32](t, 64)
	s[t.LocalX()] = in[i]
	t.Barrier()
	return s[63-t.LocalX()]
}

func sharedInFunc(t xpu.Thread, out, in []float32) {
	var acc float32
	for k := range uint32(2) {
		acc += stage(t, in, t.GlobalX()+k*64)
	}
	out[t.GlobalX()] = acc
}

func sharedInLoop(t xpu.Thread, out, in []float32) {
	var acc float32
	for k := range uint32(2) {
		s := xpu.Shared[float32](t, 64)
		s[t.LocalX()] = in[t.GlobalX()+k*64]
		t.Barrier()
		acc += s[63-t.LocalX()]
	}
	out[t.GlobalX()] = acc
}

// TestSharedPlacement: xpu.Shared in a device function or in a loop is
// refused by name (the generator refuses both), never a fresh array per
// call.
func TestSharedPlacement(t *testing.T) {
	for name, k := range map[string]func(xpu.Thread, []float32, []float32){"device function": sharedInFunc, "loop": sharedInLoop} {
		for _, rc := range []xpu.RaceCheck{xpu.RaceCheckOn, xpu.RaceCheckOff} {
			err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 64}, RaceCheck: rc}, k, make([]float32, 64), make([]float32, 128))
			if !errors.Is(err, xpu.ErrRun) || !strings.Contains(fmt.Sprint(err), "[xpu-shared-placement]") {
				t.Errorf("%s: err = %v, want ErrRun naming xpu-shared-placement", name, err)
			}
		}
	}
}

// warpReduce is the classic warp-synchronous reduction: after the first
// barrier, the first 32 work-items halve the sum with no barrier between
// steps. Work-item 0 reads s[16], which work-item 16 writes in the same
// step: a race on every device.
func warpReduce(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[float32](t, 64)
	l := t.LocalX()
	s[l] = in[t.GlobalX()] + in[t.GlobalX()+64*t.NumGroupsX()]
	t.Barrier()
	if l < 32 {
		s[l] += s[l+32]
		s[l] += s[l+16]
		s[l] += s[l+8]
		s[l] += s[l+4]
		s[l] += s[l+2]
		s[l] += s[l+1]
	}
	if l == 0 {
		out[t.GroupX()] = s[0]
	}
}

// treeReduce is the same sum with a barrier after every step: no race.
func treeReduce(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[float32](t, 64)
	l := t.LocalX()
	s[l] = in[t.GlobalX()] + in[t.GlobalX()+64*t.NumGroupsX()]
	t.Barrier()
	for step := uint32(32); step > 0; step /= 2 {
		if l < step {
			s[l] += s[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		out[t.GroupX()] = s[0]
	}
}

// neighbour reads the element its neighbour writes, with no barrier: the
// race reaches only a buffer.
func neighbour(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[float32](t, 64)
	l := t.LocalX()
	s[l] = in[t.GlobalX()]
	out[t.GlobalX()] = s[l^1]
}

// lastWriter has every work-item write the same element.
func lastWriter(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[float32](t, 1)
	s[0] = in[t.GlobalX()]
	t.Barrier()
	out[t.GlobalX()] = s[0]
}

// rowWriters has work-items write distinct scalars of the rows of a
// shared array of arrays: no race.
func rowWriters(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[[8]float32](t, 8)
	l := t.LocalX()
	s[l/8][l%8] = in[t.GlobalX()]
	t.Barrier()
	out[t.GlobalX()] = s[l%8][l/8]
}

// rowClash has pairs of work-items write one scalar of a row.
func rowClash(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[[8]float32](t, 4)
	l := t.LocalX()
	s[l/16][l%16/2] = in[t.GlobalX()]
	t.Barrier()
	out[t.GlobalX()] = s[l/16][l%8]
}

// particle is a shared struct element whose fields different work-items
// write.
type particle struct {
	X, Y float32
	V    [2]float32
}

// fieldWriters has four work-items write the four scalars of one struct
// element, two of them through its array field: no race.
func fieldWriters(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[particle](t, 16)
	l := t.LocalX()
	p, v := &s[l/4], in[t.GlobalX()]
	switch l % 4 {
	case 0:
		p.X = v
	case 1:
		p.Y = v
	default:
		p.V[l%2] = v
	}
	t.Barrier()
	out[t.GlobalX()] = s[l%16].X + s[l%16].V[1]
}

// fieldClash has work-items 3 and 7 write one array field's scalar of
// element 0.
func fieldClash(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[particle](t, 16)
	l := t.LocalX()
	if l == 3 || l == 7 {
		s[0].V[1] = in[t.GlobalX()]
	} else if l < 16 {
		s[l].Y = in[t.GlobalX()] + 1
	}
	t.Barrier()
	out[t.GlobalX()] = s[0].V[1]
}

// sharedCount counts with atomics on a shared array, then compacts the
// work-items with odd inputs through a shared atomic ticket: order
// dependent slots, but no race.
func sharedCount(t xpu.Thread, out []uint32, in []float32) {
	c := xpu.Shared[uint32](t, 2)
	ids := xpu.Shared[uint32](t, 64)
	l := t.LocalX()
	if l < 2 {
		xpu.AtomicStore(&c[l], 0)
	}
	t.Barrier()
	if in[t.GlobalX()] > 0.5 {
		k := xpu.AtomicAdd(&c[0], 1)
		ids[k] = l
	}
	t.Barrier()
	if l == 0 {
		var sum uint32
		for k := range xpu.AtomicLoad(&c[0]) {
			sum += ids[k]
		}
		out[t.GroupX()] = sum
	}
}

// waveReduce sums each wave with a wave verb and the waves' sums through
// shared memory, with a barrier between the write and the reads.
func waveReduce(t xpu.Thread, out, in []float32) {
	s := xpu.Shared[float32](t, 8)
	l := t.LocalX()
	w := xpu.WaveSum(t, in[t.GlobalX()])
	if t.LaneIndex() == 0 {
		s[l/t.WaveWidth()] = w
	}
	t.Barrier()
	if l == 0 {
		var sum float32
		for k := range 64 / t.WaveWidth() {
			sum += s[k]
		}
		out[t.GroupX()] = sum
	}
}

func raceInputs() ([]float32, []float32) {
	in := make([]float32, 256)
	for i := range in {
		in[i] = rand.Float32()
	}
	return make([]float32, 256), in
}

// TestSharedRace: the race check finds a shared-memory element written by
// one work-item and read or written by another between two barriers, and
// names the kernel, the array, the element and both work-items.
func TestSharedRace(t *testing.T) {
	for _, c := range []struct {
		name string
		k    func(xpu.Thread, []float32, []float32)
		want []string
	}{
		{"warp-synchronous reduction", warpReduce, []string{"warpReduce", "shared array #0 (float32[64]", "written by local", "and read by local"}},
		{"neighbour", neighbour, []string{"neighbour", "shared array #0", "and read by local"}},
		{"last writer", lastWriter, []string{"lastWriter", "element 0 is written by local {0 0 0} and by local {1 0 0}"}},
		{"a field of a struct", fieldClash, []string{"fieldClash", "element 0, field V[1] of it, is written by local {3 0 0} and by local {7 0 0}"}},
		{"a scalar of a row", rowClash, []string{"rowClash", "shared array #0 ([8]float32[4]", "element 0, scalar 0 of it, is written by local {0 0 0} and by local {1 0 0}"}},
	} {
		out, in := raceInputs()
		err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 2}, Block: xpu.Dim3{X: 64}, RaceCheck: xpu.RaceCheckOn}, c.k, out, in)
		if !errors.Is(err, xpu.ErrRace) || !errors.Is(err, xpu.ErrRun) {
			t.Errorf("%s: err = %v, want ErrRace", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\ndoes not say %q", c.name, err, w)
			}
		}
		t.Logf("%s: %v", c.name, err)
	}
	out, in := raceInputs()
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 2}, Block: xpu.Dim3{X: 64}, RaceCheck: xpu.RaceCheckOff}, warpReduce, out, in); err != nil {
		t.Errorf("with the race check off: %v", err)
	}
}

// TestSharedRaceNone: kernels without races pass the race check: barriers
// between the steps, atomics on shared arrays, wave verbs, distinct
// scalars of one row or fields of one struct.
func TestSharedRaceNone(t *testing.T) {
	for name, k := range map[string]func(xpu.Thread, []float32, []float32){"tree": treeReduce, "wave": waveReduce, "rows": rowWriters, "fields": fieldWriters} {
		for _, wave := range []uint32{8, 32} {
			out, in := raceInputs()
			if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 2}, Block: xpu.Dim3{X: 64}, WaveWidth: wave, RaceCheck: xpu.RaceCheckOn}, k, out, in); err != nil {
				t.Errorf("%s, wave %d: %v", name, wave, err)
			}
		}
	}
	_, in := raceInputs()
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 4}, Block: xpu.Dim3{X: 64}, RaceCheck: xpu.RaceCheckOn}, sharedCount, make([]uint32, 4), in); err != nil {
		t.Errorf("shared atomics: %v", err)
	}
}
