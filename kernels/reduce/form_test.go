package reduce

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/tune"
)

// TestContests checks what New learns of every device present: each runs
// every wave kernel (the CPU and WebGPU backends run every tier down to
// the emulated one), and a Reducer whose device ran no wave form takes
// the shared one without asking its tuner, even one forced to the wave
// form.
func TestContests(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		var asked int
		force := map[string]string{}
		for op := range uses {
			force["pays/"+PaysName(op)] = "wave"
		}
		r, err := New(d, &tune.Tuner{Force: force, Log: func(*tune.Choice) { asked++ }})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Release()
		for op, c := range r.contests {
			if !c.waveRuns || c.waveHash == c.baseHash {
				t.Errorf("%s: wave form runs %v, hashes %s and %s", op, c.waveRuns, c.waveHash, c.baseHash)
			}
		}
		if w, err := d.KernelWave(SumWaveKernel); err == nil {
			t.Logf("the wave kernels run at tier %q, width %d", w.Tier, w.Width)
		}
		for op, c := range r.contests {
			c.waveRuns = false
			r.contests[op] = c
		}
		ones := make([]float32, 5000)
		for i := range ones {
			ones[i] = 1
		}
		x, err := gpu.Upload(d, ones)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Release()
		dst, err := gpu.NewBuffer[float32](d, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer dst.Release()
		if err := r.Sum(d.Stream(), dst, x); err != nil {
			t.Fatal(err)
		}
		got, err := dst.Download()
		if err != nil {
			t.Fatal(err)
		}
		if asked != 0 || got[0] != 5000 {
			t.Errorf("without a wave form: the tuner was asked %d times, the sum is %v; want none and 5000", asked, got[0])
		}
	})
}
