package cpubench

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Result is one measurement beside its reference point, both taken in the
// same run.
type Result struct {
	Name     string  // what the kernel did
	Value    float64 // the kernel's figure, in Unit
	Ref      string  // the reference point
	RefValue float64 // the reference point's figure, in Unit
	Unit     string  // "GB/s" or "GFLOP/s"
	Goal     float64 // the ratio aimed at
}

// Ratio is Value/RefValue.
func (r Result) Ratio() float64 { return r.Value / r.RefValue }

// Met reports whether the ratio reaches the goal.
func (r Result) Met() bool { return r.Ratio() >= r.Goal }

// Config sizes the measurements.
type Config struct {
	N         int           // elements of the saxpy and sum vectors
	GemmSizes []int         // matrix sizes of the SGEMM, multiples of 64
	MinTime   time.Duration // how long each figure is measured at least
}

// Default is the configuration of the published table.
func Default() Config {
	return Config{N: 1 << 24, GemmSizes: []int{512, 1024}, MinTime: 500 * time.Millisecond}
}

// measure runs f until minTime has passed (at least three times, after one
// warm-up) and returns its fastest run.
func measure(minTime time.Duration, f func() error) (time.Duration, error) {
	if err := f(); err != nil {
		return 0, err
	}
	best := time.Duration(math.MaxInt64)
	start := time.Now()
	for runs := 0; runs < 3 || time.Since(start) < minTime; runs++ {
		t := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		best = min(best, time.Since(t))
	}
	return best, nil
}

func randomFloats(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 0))
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()
	}
	return v
}

func gbs(bytes int, d time.Duration) float64 { return float64(bytes) / d.Seconds() / 1e9 }

// saxpyGo is the plain Go loop saxpy is compared with.
func saxpyGo(y, x []float32, a float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += a * x[i]
	}
}

// saxpy measures the kernel on one worker or on all of them.
func saxpy(cfg Config, oneCore bool) (float64, error) {
	n := cfg.N
	dev, err := openCPU(oneCore)
	if err != nil {
		return 0, err
	}
	defer dev.Close()
	bufs, err := uploads(dev, randomFloats(n, 2), randomFloats(n, 1))
	if err != nil {
		return 0, err
	}
	defer release(bufs)
	groups := xpu.Dim3{X: xpu.GroupsFor(uint32(n), kernels.SaxpyKernel.Block().X)}
	d, err := measure(cfg.MinTime, func() error {
		if err := kernels.LaunchSaxpy(dev.Stream(), groups, bufs[0], bufs[1], 0.5, uint32(n)); err != nil {
			return err
		}
		return dev.Stream().Sync()
	})
	return gbs(12*n, d), err
}

// SaxpyOneCore compares saxpy on one worker with a plain Go loop.
func SaxpyOneCore(cfg Config) (Result, error) {
	r := Result{Name: "saxpy, 1 core", Ref: "plain Go loop, 1 core", Unit: "GB/s", Goal: 1.0}
	x, y := randomFloats(cfg.N, 1), randomFloats(cfg.N, 2)
	d, _ := measure(cfg.MinTime, func() error { saxpyGo(y, x, 0.5); return nil })
	r.RefValue = gbs(12*cfg.N, d)
	var err error
	r.Value, err = saxpy(cfg, true)
	return r, err
}

// triad is a[i] = b[i] + s*c[i] on all cores: the memory bandwidth.
func triad(a, b, c []float32, s float32) {
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := len(a)*k/w, len(a)*(k+1)/w
		wg.Go(func() {
			a, b, c := a[lo:hi], b[lo:hi], c[lo:hi]
			for i := range a {
				a[i] = b[i] + s*c[i]
			}
		})
	}
	wg.Wait()
}

// SaxpyAllCores compares saxpy on every worker with the memory bandwidth
// a Go triad reaches on every core.
func SaxpyAllCores(cfg Config) (Result, error) {
	r := Result{Name: fmt.Sprintf("saxpy, %d cores", runtime.GOMAXPROCS(0)), Ref: "Go triad bandwidth, all cores", Unit: "GB/s", Goal: 0.85}
	a, b, c := make([]float32, cfg.N), randomFloats(cfg.N, 1), randomFloats(cfg.N, 2)
	d, _ := measure(cfg.MinTime, func() error { triad(a, b, c, 3); return nil })
	r.RefValue = gbs(12*cfg.N, d)
	var err error
	r.Value, err = saxpy(cfg, false)
	return r, err
}

// sumGo is the plain Go loop the sum is compared with.
func sumGo(x []float32) float32 {
	var s float32
	for _, v := range x {
		s += v
	}
	return s
}

// SumReduction compares the sum reduction (on every worker, the block partials
// added on the host) with a plain Go loop.
func SumReduction(cfg Config) (Result, error) {
	r := Result{Name: fmt.Sprintf("sum, %d cores", runtime.GOMAXPROCS(0)), Ref: "plain Go loop, 1 core", Unit: "GB/s", Goal: 1.0}
	const per = 64
	n := cfg.N / (256 * per) * (256 * per)
	x := randomFloats(n, 3)
	var want float32
	d, _ := measure(cfg.MinTime, func() error { want = sumGo(x); return nil })
	r.RefValue = gbs(4*n, d)
	groups := n / (256 * per)
	dev, err := openCPU(false)
	if err != nil {
		return r, err
	}
	defer dev.Close()
	bufs, err := uploads(dev, make([]float32, groups), x)
	if err != nil {
		return r, err
	}
	defer release(bufs)
	partial := make([]float32, groups)
	var got float32
	d, err = measure(cfg.MinTime, func() error {
		if err := kernels.LaunchSum(dev.Stream(), xpu.Dim3{X: uint32(groups)}, bufs[0], bufs[1], per); err != nil {
			return err
		}
		if err := bufs[0].Read(partial); err != nil {
			return err
		}
		got = sumGo(partial)
		return nil
	})
	if err != nil {
		return r, err
	}
	if rel := math.Abs(float64(got-want)) / math.Abs(float64(want)); rel > 1e-4 {
		return r, fmt.Errorf("cpubench: sum %v, plain loop %v", got, want)
	}
	r.Value = gbs(4*n, d)
	return r, nil
}

// SGEMM compares the tiled SGEMM kernel (on every worker) with gonum's
// Sgemm at size n.
func SGEMM(cfg Config, n int) (Result, error) {
	r := Result{Name: fmt.Sprintf("tiled SGEMM n=%d, %d cores", n, runtime.GOMAXPROCS(0)), Ref: "gonum Sgemm", Unit: "GFLOP/s", Goal: 2.0}
	if n%64 != 0 {
		return r, fmt.Errorf("cpubench: SGEMM size %d is not a multiple of 64", n)
	}
	a, b, c := randomFloats(n*n, 4), randomFloats(n*n, 5), make([]float32, n*n)
	flops := 2 * float64(n) * float64(n) * float64(n)
	d, _ := measure(cfg.MinTime, func() error {
		gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
		return nil
	})
	r.RefValue = flops / d.Seconds() / 1e9
	got, d, err := gemm(cfg, n, a, b)
	if err != nil {
		return r, err
	}
	for i := range c {
		if math.Abs(float64(got[i]-c[i])) > 1e-3*float64(n) {
			return r, fmt.Errorf("cpubench: SGEMM c[%d] = %v, gonum %v", i, got[i], c[i])
		}
	}
	r.Value = flops / d.Seconds() / 1e9
	return r, nil
}

// gemm measures the kernel on every worker and returns its product.
func gemm(cfg Config, n int, a, b []float32) ([]float32, time.Duration, error) {
	dev, err := openCPU(false)
	if err != nil {
		return nil, 0, err
	}
	defer dev.Close()
	return gemmOn(cfg, dev, n, a, b, benchGemm(n))
}

// All runs every measurement.
func All(cfg Config) ([]Result, error) {
	var rs []Result
	for _, f := range []func(Config) (Result, error){SaxpyOneCore, SaxpyAllCores, SumReduction} {
		r, err := f(cfg)
		if err != nil {
			return rs, err
		}
		rs = append(rs, r)
	}
	for _, n := range cfg.GemmSizes {
		r, err := SGEMM(cfg, n)
		if err != nil {
			return rs, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// Table writes rs as a Markdown table.
func Table(w io.Writer, rs []Result) {
	fmt.Fprintln(w, "| kernel | figure | reference point | figure | ratio | goal | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rs {
		met := "no"
		if r.Met() {
			met = "yes"
		}
		fmt.Fprintf(w, "| %s | %.2f %s | %s | %.2f %s | %.2fx | >= %.2fx | %s |\n",
			r.Name, r.Value, r.Unit, r.Ref, r.RefValue, r.Unit, r.Ratio(), r.Goal, met)
	}
}
