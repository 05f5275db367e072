package xpu_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
)

func saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

func TestRunSaxpy(t *testing.T) {
	const n = 1000
	x, y := make([]float32, n), make([]float32, n)
	want := make([]float32, n)
	for i := range x {
		x[i], y[i] = rand.Float32(), rand.Float32()
		want[i] = 3*x[i] + y[i]
	}
	err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: xpu.GroupsFor(n, 64)}, Block: xpu.Dim3{X: 64}}, saxpy, y, x, float32(3), uint32(n))
	if err != nil {
		t.Fatal(err)
	}
	for i := range y {
		if y[i] != want[i] {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], want[i])
		}
	}
}

// blockReverse reverses each block through shared memory: it needs the barrier.
func blockReverse(t xpu.Thread, out, in []int32) {
	s := xpu.Shared[int32](t, 64)
	l := t.LocalIndex()
	s[l] = in[t.GlobalX()]
	t.Barrier()
	out[t.GlobalX()] = s[63-l]
}

func TestRunSharedAndBarrier(t *testing.T) {
	in, out := make([]int32, 256), make([]int32, 256)
	for i := range in {
		in[i] = rand.Int32()
	}
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 4}, Block: xpu.Dim3{X: 64}}, blockReverse, out, in); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		g, l := i/64, i%64
		if out[i] != in[g*64+63-l] {
			t.Fatalf("out[%d] = %d, want %d", i, out[i], in[g*64+63-l])
		}
	}
}

func earlyExit(t xpu.Thread, out []uint32) {
	if t.LocalX()%2 == 1 {
		return
	}
	t.Barrier() // non-uniform: the generator refuses it
	out[t.GlobalX()] = 1
}

func twoBarriers(t xpu.Thread, out []uint32) {
	if t.LocalX() < 16 {
		t.Barrier() // non-uniform: the generator refuses it
	}
	t.Barrier()
	out[t.GlobalX()] = 1
}

func waveAfterReturn(t xpu.Thread, out []uint32) {
	if t.LocalX()%2 == 1 {
		return
	}
	out[t.GlobalX()] = xpu.WaveSum(t, uint32(1)) // non-uniform: the generator refuses it
}

func waveBesideBarrier(t xpu.Thread, out []uint32) {
	if t.LocalX()%2 == 1 {
		out[t.GlobalX()] = xpu.WaveSum(t, uint32(1)) // non-uniform: the generator refuses it
	}
	t.Barrier()
}

func twoWaveVerbs(t xpu.Thread, out []uint32) {
	if t.LocalX()%2 == 1 {
		out[t.GlobalX()] = xpu.WaveSum(t, uint32(1)) // non-uniform: the generator refuses it
	} else {
		out[t.GlobalX()] = xpu.WaveMin(t, uint32(2)) // non-uniform: the generator refuses it
	}
}

// TestWaveNonuniform: a wave verb that some lanes of a wave do not reach
// is refused by name, never a sum over the lanes that happened to come.
func TestWaveNonuniform(t *testing.T) {
	for name, k := range map[string]func(xpu.Thread, []uint32){"early return": waveAfterReturn, "beside a barrier": waveBesideBarrier, "two verbs": twoWaveVerbs} {
		for _, rc := range []xpu.RaceCheck{xpu.RaceCheckOn, xpu.RaceCheckOff} {
			err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 2}, Block: xpu.Dim3{X: 32}, WaveWidth: 8, RaceCheck: rc}, k, make([]uint32, 64))
			if !errors.Is(err, xpu.ErrRun) || !strings.Contains(fmt.Sprint(err), "[xpu-wave-nonuniform]") {
				t.Errorf("%s: err = %v, want ErrRun naming xpu-wave-nonuniform", name, err)
			}
		}
	}
}

// TestBarrierNonuniform: a barrier that not every work-item of a block
// reaches, or that they reach at different calls, is refused by name, as
// the generator refuses it; it neither hangs nor passes.
func TestBarrierNonuniform(t *testing.T) {
	for name, k := range map[string]func(xpu.Thread, []uint32){"early return": earlyExit, "two barriers": twoBarriers} {
		for _, rc := range []xpu.RaceCheck{xpu.RaceCheckOn, xpu.RaceCheckOff} {
			err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 2}, Block: xpu.Dim3{X: 32}, RaceCheck: rc}, k, make([]uint32, 64))
			if !errors.Is(err, xpu.ErrRun) || !strings.Contains(fmt.Sprint(err), "[xpu-barrier-nonuniform]") {
				t.Errorf("%s: err = %v, want ErrRun naming xpu-barrier-nonuniform", name, err)
			}
		}
	}
}

func outOfRange(t xpu.Thread, out []uint32) { out[t.GlobalX()+1] = 1 }

func TestRunReportsFailure(t *testing.T) {
	err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 4}}, outOfRange, make([]uint32, 4))
	if !errors.Is(err, xpu.ErrRun) {
		t.Fatalf("err = %v, want ErrRun", err)
	}
	err = xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 4}}, outOfRange, make([]float32, 4))
	if !errors.Is(err, xpu.ErrCall) {
		t.Fatalf("err = %v, want ErrCall", err)
	}
}

func atomics(t xpu.Thread, c []int32, f []float32) {
	xpu.AtomicAdd(&c[0], 1)
	xpu.AtomicMax(&c[1], int32(t.GlobalX()))
	xpu.AtomicMin(&c[2], -int32(t.GlobalX()))
	xpu.AtomicAddFloat32(&f[0], 0.5)
}

func TestRunAtomics(t *testing.T) {
	c, f := make([]int32, 3), make([]float32, 1)
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 8}, Block: xpu.Dim3{X: 128}}, atomics, c, f); err != nil {
		t.Fatal(err)
	}
	if c[0] != 1024 || c[1] != 1023 || c[2] != -1023 || f[0] != 512 {
		t.Fatalf("c = %v, f = %v", c, f)
	}
}
