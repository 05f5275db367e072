package devicebench_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/schema"
)

// barrierFree reports whether k has neither barriers nor wave verbs, as
// its WGSL says: the kernels the reference runner runs as a loop.
func barrierFree(k *gpu.Kernel) bool {
	s := k.Spec()
	if s.WaveOps {
		return false
	}
	for _, a := range s.Artifacts {
		if a.Target == schema.TargetWGSL && strings.Contains(a.Code, "workgroupBarrier") {
			return false
		}
	}
	return true
}

// suiteCases returns the conformance cases, or only the barrier-free ones.
func suiteCases(free bool) []*gputest.Case {
	var cs []*gputest.Case
	for _, c := range conformance.Cases() {
		if !free || barrierFree(c.Kernel) {
			cs = append(cs, c)
		}
	}
	return cs
}

// timeSuite runs the reference of every case of cs once with o.
func timeSuite(tb testing.TB, cs []*gputest.Case, o gpu.ReferenceOptions) time.Duration {
	var d time.Duration
	for _, c := range cs {
		in := c.Setup(rand.New(rand.NewPCG(1, 0)))
		args := gputest.ReferenceArgs(in)
		start := time.Now()
		if err := c.Kernel.ReferenceWith(o, in.Groups, args...); err != nil {
			tb.Fatal(err)
		}
		d += time.Since(start)
	}
	return d
}

// BenchmarkReferenceLoop times the reference runs of the conformance
// suite with every work-item a goroutine (Config.Goroutines) and as the
// runner runs them by default (a loop per block until a work-item
// waits), alternating in each round so that both see the same machine:
// over the barrier-free cases and over all, with the race check off and
// on. The figure is goroutines/loop.
func BenchmarkReferenceLoop(b *testing.B) {
	for _, set := range []struct {
		name string
		free bool
	}{{"barrier-free", true}, {"all", false}} {
		cs := suiteCases(set.free)
		for _, rc := range []xpu.RaceCheck{xpu.RaceCheckOff, xpu.RaceCheckOn} {
			b.Run(fmt.Sprintf("%s/race=%v", set.name, rc == xpu.RaceCheckOn), func(b *testing.B) {
				var gor, loop time.Duration
				for b.Loop() {
					gor += timeSuite(b, cs, gpu.ReferenceOptions{RaceCheck: rc, Goroutines: true})
					loop += timeSuite(b, cs, gpu.ReferenceOptions{RaceCheck: rc})
				}
				b.ReportMetric(float64(len(cs)), "cases")
				b.ReportMetric(gor.Seconds()*1e3/float64(b.N), "goroutines-ms/op")
				b.ReportMetric(loop.Seconds()*1e3/float64(b.N), "loop-ms/op")
				b.ReportMetric(float64(gor)/float64(loop), "goroutines/loop")
			})
		}
	}
}

// jacobi is one Jacobi step of the Laplace equation on a w-by-h grid:
// each interior point becomes the mean of its four neighbours, the
// boundary is kept.
func jacobi(t xpu.Thread, out, in []float32, w, h uint32) {
	x, y := t.GlobalX(), t.GlobalY()
	if x >= w || y >= h {
		return
	}
	i := y*w + x
	if x == 0 || y == 0 || x == w-1 || y == h-1 {
		out[i] = in[i]
		return
	}
	out[i] = 0.25 * (in[i-1] + in[i+1] + in[i-w] + in[i+w])
}

// BenchmarkReferenceJacobi times one Jacobi step of a 1000x777 grid in
// 16x16 blocks through the reference runner, with the race check on (as
// a test runs it), three ways in turn: with goroutines and the kernel
// called through reflection (xpu.Run with Config.Goroutines), as a loop
// calling it through reflection (xpu.Run), and as a loop calling it
// bound to its arguments (xpu.RunBound, as gpu.Kernel.Reference runs a
// generated kernel).
func BenchmarkReferenceJacobi(b *testing.B) {
	const w, h = 1000, 777
	in, out := make([]float32, w*h), make([]float32, w*h)
	for i := range in {
		in[i] = rand.Float32()
	}
	bound := func(t xpu.Thread) { jacobi(t, out, in, w, h) }
	step := func(goroutines, bind bool) time.Duration {
		cfg := xpu.Config{Groups: xpu.Dim3{X: xpu.GroupsFor(w, 16), Y: xpu.GroupsFor(h, 16)}, Block: xpu.Dim3{X: 16, Y: 16},
			RaceCheck: xpu.RaceCheckOn, Goroutines: goroutines}
		start := time.Now()
		var err error
		if bind {
			err = xpu.RunBound(cfg, jacobi, bound, out, in, uint32(w), uint32(h))
		} else {
			err = xpu.Run(cfg, jacobi, out, in, uint32(w), uint32(h))
		}
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var gor, loop, bnd time.Duration
	for b.Loop() {
		gor += step(true, false)
		loop += step(false, false)
		bnd += step(false, true)
	}
	b.ReportMetric(gor.Seconds()/float64(b.N), "goroutines-s/op")
	b.ReportMetric(loop.Seconds()/float64(b.N), "loop-s/op")
	b.ReportMetric(bnd.Seconds()/float64(b.N), "bound-s/op")
	b.ReportMetric(float64(gor)/float64(bnd), "goroutines/bound")
	b.ReportMetric(float64(loop)/float64(bnd), "loop/bound")
}

// TestReferenceLoop runs every conformance case's reference on fresh
// random inputs as a loop and with goroutines, with the race check on
// and off: the results must agree bit for bit, and so must the errors.
// It does not run under Go's race detector, which slows a goroutine a
// work-item most: there it took five minutes of the test command's race
// pass, even with only the cases of at most 4Ki work-items, and the root
// package's tests run both paths under the detector
// (TestLoopSameAsGoroutines); the pass without the detector runs it.
func TestReferenceLoop(t *testing.T) {
	if underRace {
		t.Skip("not under the race detector: the root package's tests run both paths there")
	}
	for _, c := range conformance.Cases() {
		t.Run(c.Name(), func(t *testing.T) {
			seed := rand.Uint64()
			for _, rc := range []xpu.RaceCheck{xpu.RaceCheckOn, xpu.RaceCheckOff} {
				var runs [2][]any
				var errs [2]string
				for i, gor := range []bool{false, true} {
					in := c.Setup(rand.New(rand.NewPCG(seed, 0)))
					runs[i] = gputest.ReferenceArgs(in)
					errs[i] = fmt.Sprint(c.Kernel.ReferenceWith(gpu.ReferenceOptions{RaceCheck: rc, Goroutines: gor}, in.Groups, runs[i]...))
				}
				if errs[0] != errs[1] {
					t.Errorf("race check %v, seed %d: loop: %s\ngoroutines: %s", rc, seed, errs[0], errs[1])
				}
				if !gputest.SameBits(runs[0], runs[1]) {
					t.Errorf("race check %v, seed %d: the loop's results differ from the goroutines'", rc, seed)
				}
			}
		})
	}
}
