package devicebench_test

import (
	"slices"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
)

// BenchmarkReplay measures what replaying a captured sequence saves the
// host: a repeated sequence of 1,000 small launches (saxpy and copy over
// four 256-element buffers, other buffers and scalars launch to launch,
// as a decode step's launches are), recorded three ways in the same
// iterations, the order rotating: launch by launch through every stage
// (the direct batched path, the reference point), by replaying a graph
// captured once with its scalars patched, and launch by launch on a
// stream that has captured the repeated sequence by itself. The host
// cost of a batch is the time from its first launch until the flush that
// submits it has returned; the device's run, waited for after, is not
// counted. Each way's results must be bit-identical to the direct ones.
// It reports microseconds a launch for each, and the medians of the
// iterations' ratios to direct.
func BenchmarkReplay(b *testing.B) {
	for _, shape := range []string{"mixed", "same"} {
		b.Run(shape, func(b *testing.B) {
			onBenchDevices(b, func(b *testing.B, d *gpu.Device) { benchReplay(b, d, shape == "same") })
		})
	}
}

func benchReplay(b *testing.B, d *gpu.Device, same bool) {
	const launches, n, nbuf = 1000, 256, 4
	type launch struct {
		copy bool
		y, x int
		a    float32
	}
	seq := make([]launch, launches)
	for i := range seq {
		seq[i] = launch{copy: i%5 == 4, y: i % nbuf, x: (i + 1 + i/nbuf%3) % nbuf, a: float32(i%7) * 0.25}
		if same {
			seq[i] = launch{y: 0, x: 1, a: 0.5}
		}
	}
	init := make([][]float32, nbuf)
	for i := range init {
		init[i] = make([]float32, n)
		for j := range init[i] {
			init[i][j] = float32((i*n+j)%13) * 0.125
		}
	}
	bufs := make([]*gpu.Buffer[float32], nbuf)
	for i := range bufs {
		var err error
		if bufs[i], err = gpu.Upload(d, init[i]); err != nil {
			b.Fatal(err)
		}
		defer bufs[i].Release()
	}
	reset := func() {
		for i, buf := range bufs {
			if err := buf.Write(init[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	record := func(s *gpu.Stream, step int) error {
		for _, l := range seq {
			var err error
			if l.copy {
				err = kernels.LaunchCopy(s, xpu.Dim3{X: n / 64}, bufs[l.y], bufs[l.x], n)
			} else {
				err = kernels.LaunchSaxpy(s, xpu.Dim3{X: n / 64}, bufs[l.y], bufs[l.x], l.a+float32(step), n)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	results := func() [][]float32 {
		out := make([][]float32, nbuf)
		for i, buf := range bufs {
			var err error
			if out[i], err = buf.Download(); err != nil {
				b.Fatal(err)
			}
		}
		return out
	}
	// batch runs fn, which records a batch on s, and returns its host
	// cost, until the flush has returned, and its whole time, until the
	// sync after it has returned: a queue may spend some of the wait
	// preparing the next replay (a WebGPU queue encodes it ahead).
	batch := func(s *gpu.Stream, fn func() error) (host, whole time.Duration) {
		t0 := time.Now()
		if err := fn(); err != nil {
			b.Fatal(err)
		}
		if err := s.Flush(); err != nil {
			b.Fatal(err)
		}
		host = time.Since(t0)
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		return host, time.Since(t0)
	}

	direct, err := d.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer direct.Close()
	auto, err := d.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer auto.Close()
	replay, err := d.NewStream()
	if err != nil {
		b.Fatal(err)
	}
	defer replay.Close()
	g, err := replay.Capture(func() error { return record(replay, 0) })
	if err != nil {
		b.Fatal(err)
	}
	defer g.Release()
	patch := func(step int) error {
		for i, l := range seq {
			if !l.copy {
				if err := g.SetScalar(i, "a", l.a+float32(step)); err != nil {
					return err
				}
			}
		}
		return nil
	}

	// The three ways give the same results, and warm up: the direct
	// stream never repeats a segment (each batch is one), nor do the
	// others but the auto stream, which captures after a few.
	d.SetReplay(false)
	batch(direct, func() error { return record(direct, 1) })
	d.SetReplay(true)
	want := results()
	reset()
	batch(replay, func() error {
		if err := patch(1); err != nil {
			return err
		}
		return g.Replay()
	})
	if got := results(); !equal(got, want) {
		b.Fatal("a replayed sequence's results differ from the direct one's")
	}
	for range 4 {
		reset()
		batch(auto, func() error { return record(auto, 1) })
	}
	if got := results(); !equal(got, want) {
		b.Fatal("a sequence the stream replayed by itself differs from the direct one's")
	}
	before := auto.Counters()

	var took [3]time.Duration
	var ratios [3][]float64 // per iteration: replay/direct, auto/direct, and replay/direct until the sync
	ways := []func(step int) (time.Duration, time.Duration){
		func(step int) (time.Duration, time.Duration) {
			d.SetReplay(false)
			defer d.SetReplay(true)
			return batch(direct, func() error { return record(direct, step) })
		},
		func(step int) (time.Duration, time.Duration) {
			return batch(replay, func() error {
				if err := patch(step); err != nil {
					return err
				}
				return g.Replay()
			})
		},
		func(step int) (time.Duration, time.Duration) {
			return batch(auto, func() error { return record(auto, step) })
		},
	}
	i := 0
	for b.Loop() {
		var t, whole [3]time.Duration
		for j := range ways {
			k := (i + j) % len(ways)
			t[k], whole[k] = ways[k](i)
			took[k] += t[k]
		}
		ratios[0] = append(ratios[0], float64(t[1])/float64(t[0]))
		ratios[1] = append(ratios[1], float64(t[2])/float64(t[0]))
		ratios[2] = append(ratios[2], float64(whole[1])/float64(whole[0]))
		i++
	}
	after := auto.Counters()
	if replayed := after.Replayed - before.Replayed; replayed != uint64(b.N*launches) && d.Replays() && replays(d) {
		b.Fatalf("the stream replayed %d of %d launches by itself: %+v", replayed, b.N*launches, after)
	}
	per := func(t time.Duration) float64 { return float64(t) / float64(time.Microsecond) / float64(b.N*launches) }
	b.ReportMetric(per(took[0]), "direct-us/launch")
	b.ReportMetric(per(took[1]), "replay-us/launch")
	b.ReportMetric(per(took[2]), "auto-us/launch")
	// The ratios are the medians of the iterations': a machine's load
	// comes and goes between them more than within one.
	b.ReportMetric(median(ratios[0]), "replay/direct")
	b.ReportMetric(median(ratios[1]), "auto/direct")
	b.ReportMetric(median(ratios[2]), "replay/direct-synced")
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// replays reports whether d's streams capture repeated sequences by
// themselves: those whose queue resolves graphs (WebGPU).
func replays(d *gpu.Device) bool { return d.Backend() == "webgpu" }

func equal(a, b [][]float32) bool {
	return slices.EqualFunc(a, b, func(x, y []float32) bool { return slices.Equal(x, y) })
}
