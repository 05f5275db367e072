// Package devicebench measures kernels on any device beside a reference
// point in the same run: saxpy and the cost of a small launch beside a
// plain Go loop, and the block reductions with wave sums beside the one
// with shared memory only ([Benchmarks], which the browser demo runs and
// shows; BenchmarkReduce runs the reductions on each native device), and
// the reference runner's race check beside the runner without it
// (BenchmarkReferenceRaceCheck), and its loop per block beside a
// goroutine per work-item (BenchmarkReferenceLoop over the conformance
// suite, BenchmarkReferenceJacobi and BenchmarkReferenceRadixPass over
// large launches).
//
// Layering: it imports the runtime, the benchmark kernels
// (bench/internal/kernels) and the wave suite's reductions (kernels/wave).
package devicebench

import (
	"fmt"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/wave"
)

// Result is one benchmark on the device beside its reference point in
// the same program: a plain Go loop, or another kernel on the device.
type Result struct {
	Name      string  `json:"name"`
	Unit      string  `json:"unit"`
	Device    float64 `json:"device"`    // on the device, in Unit
	Reference float64 `json:"reference"` // the reference point, in Unit
	Against   string  `json:"against"`   // what the reference point is
	Note      string  `json:"note"`
}

// A Benchmark measures one figure on a device beside its reference point.
type Benchmark func(*gpu.Device) (Result, error)

// Benchmarks returns the benchmarks, in the order a program runs them.
func Benchmarks() []Benchmark {
	return []Benchmark{Saxpy, Dispatch, ReduceWave, ReduceWave32}
}

// Sizes of the benchmarks: small enough for a software adapter to finish
// in about a second.
const (
	saxpyN     = 1 << 20
	saxpyReps  = 16
	dispatchN  = 256
	dispatches = 256
	reduceN    = 1 << 16
	reduceReps = 4
)

// Saxpy measures y = a*x + y over saxpyN floats, saxpyReps times, in
// GB/s of memory traffic (12 bytes per element).
func Saxpy(d *gpu.Device) (Result, error) {
	xs, ys := make([]float32, saxpyN), make([]float32, saxpyN)
	for i := range xs {
		xs[i], ys[i] = float32(i%7), float32(i%5)
	}
	dev, err := timeLaunches(d, saxpyN, saxpyReps)
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	for range saxpyReps {
		for i, x := range xs {
			ys[i] = 2.5*x + ys[i]
		}
	}
	ref := time.Since(start)
	bytes := float64(12 * saxpyN * saxpyReps)
	return Result{
		Name:      fmt.Sprintf("saxpy, %d floats, %d launches", saxpyN, saxpyReps),
		Unit:      "GB/s",
		Device:    bytes / dev.Seconds() / 1e9,
		Reference: bytes / ref.Seconds() / 1e9,
		Against:   "Go loop",
		Note:      "launches in one stream, one sync; reference: a Go loop in this program",
	}, nil
}

// Dispatch measures the cost of a small launch, in microseconds.
func Dispatch(d *gpu.Device) (Result, error) {
	dev, err := timeLaunches(d, dispatchN, dispatches)
	if err != nil {
		return Result{}, err
	}
	ys := make([]float32, dispatchN)
	start := time.Now()
	for range dispatches {
		for i := range ys {
			ys[i] = 2.5*ys[i] + ys[i]
		}
	}
	ref := time.Since(start)
	return Result{
		Name:      fmt.Sprintf("launch of a %d-float saxpy, %d launches", dispatchN, dispatches),
		Unit:      "µs per launch",
		Device:    float64(dev.Microseconds()) / dispatches,
		Reference: float64(ref.Microseconds()) / dispatches,
		Against:   "Go loop",
		Note:      "launch and its share of one sync; reference: the same loop in Go",
	}, nil
}

// timeLaunches runs Saxpy over n floats reps times on d's default stream
// and returns the time from the first launch to the end of the sync,
// after one launch that warms the device up.
func timeLaunches(d *gpu.Device, n uint32, reps int) (time.Duration, error) {
	y, err := gpu.NewBuffer[float32](d, int(n))
	if err != nil {
		return 0, err
	}
	defer y.Release()
	x, err := gpu.NewBuffer[float32](d, int(n))
	if err != nil {
		return 0, err
	}
	defer x.Release()
	s := d.Stream()
	groups := xpu.Dim3{X: xpu.GroupsFor(n, kernels.SaxpyKernel.Block().X)}
	if err := kernels.LaunchSaxpy(s, groups, y, x, 2.5, n); err != nil {
		return 0, err
	}
	if err := s.Sync(); err != nil {
		return 0, err
	}
	start := time.Now()
	for range reps {
		if err := kernels.LaunchSaxpy(s, groups, y, x, 2.5, n); err != nil {
			return 0, err
		}
	}
	if err := s.Sync(); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// reduceLaunch launches a block reduction of package wave.
type reduceLaunch func(s *gpu.Stream, groups xpu.Dim3, partial, in *gpu.Buffer[float32], n uint32) error

// ReduceWave measures the block reduction with wave sums at the
// device's width beside the one with shared memory only, in GB/s read.
func ReduceWave(d *gpu.Device) (Result, error) {
	return benchReduce(d, wave.ReduceWaveKernel, wave.LaunchReduceWave)
}

// ReduceWave32 is ReduceWave at a declared width of 32 lanes.
func ReduceWave32(d *gpu.Device) (Result, error) {
	return benchReduce(d, wave.ReduceWave32Kernel, wave.LaunchReduceWave32)
}

// benchReduce times the reduction k and the shared-memory one over
// reduceN floats, reduceReps times each, alternately.
func benchReduce(d *gpu.Device, k *gpu.Kernel, launch reduceLaunch) (Result, error) {
	c, err := d.KernelWave(k)
	if err != nil {
		return Result{}, err
	}
	data := make([]float32, reduceN)
	for i := range data {
		data[i] = float32(i%7) * 0.25
	}
	in, err := gpu.Upload(d, data)
	if err != nil {
		return Result{}, err
	}
	defer in.Release()
	g := xpu.Dim3{X: xpu.GroupsFor(reduceN, k.Block().X)}
	partial, err := gpu.NewBuffer[float32](d, int(g.X))
	if err != nil {
		return Result{}, err
	}
	defer partial.Release()
	s := d.Stream()
	timed := func(l reduceLaunch) (time.Duration, error) {
		start := time.Now()
		if err := l(s, g, partial, in, reduceN); err != nil {
			return 0, err
		}
		err := s.Sync()
		return time.Since(start), err
	}
	var dev, ref time.Duration
	for i := range reduceReps + 1 { // the first round warms up
		t1, err := timed(launch)
		if err != nil {
			return Result{}, err
		}
		t2, err := timed(wave.LaunchReduceShared)
		if err != nil {
			return Result{}, err
		}
		if i > 0 {
			dev, ref = dev+t1, ref+t2
		}
	}
	bytes := float64(4 * reduceN * reduceReps)
	return Result{
		Name:      fmt.Sprintf("block reduction with wave sums (%s, %d lanes), %d floats", c.Tier, c.Width, reduceN),
		Unit:      "GB/s",
		Device:    bytes / dev.Seconds() / 1e9,
		Reference: bytes / ref.Seconds() / 1e9,
		Against:   "shared memory only",
		Note:      "block reductions: each launch, then a sync, alternately with the shared-memory one",
	}, nil
}
