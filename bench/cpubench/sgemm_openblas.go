//go:build openblas && cgo

package cpubench

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/simd"
	"github.com/goxpu/xpu/kernels/tensor"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// This file puts package simd's Sgemm, the CPU backend's SGEMM provider,
// beside OpenBLAS's cblas_sgemm and gonum's Sgemm, and beside itself run
// through the library's registry (kernels.MatMul on the CPU device), in
// interleaved rounds of the same run:
//
//	go test -tags openblas -run '^$' -bench SIMDSGEMM ./bench/cpubench

// SIMDSGEMM measures c = a*b for n x n matrices, on every core, as
// simd.Sgemm, OpenBLAS, gonum and kernels.MatMul compute it, one of each
// a round, and returns three rows: simd.Sgemm against OpenBLAS (goal
// 1.0) and against gonum (goal 6), and the registry's call against
// simd.Sgemm's (goal 0.95: the dispatch costs little). Each figure is its
// median round.
func SIMDSGEMM(cfg Config, n int) ([]Result, error) {
	a, b := randomFloats(n*n, 4), randomFloats(n*n, 5)
	want, got, ref := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	dev, err := openCPU(false)
	if err != nil {
		return nil, err
	}
	defer dev.Close()
	bufs, err := uploads(dev, make([]float32, n*n), a, b)
	if err != nil {
		return nil, err
	}
	defer release(bufs)
	ts := make([]tensor.Tensor, 3)
	for i, buf := range bufs {
		if ts[i], err = tensor.Dense(buf, n, n); err != nil {
			return nil, err
		}
	}
	s := dev.Stream()
	runs := []func() error{ // the registry's call beside simd.Sgemm's, OpenBLAS's threads (which spin a while after a call) after both
		func() error {
			return simd.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, got, n)
		},
		func() error {
			if err := kernels.MatMul(s, nil, ts[0], ts[1], ts[2]); err != nil {
				return err
			}
			return s.Sync()
		},
		func() error { sgemmOpenBLAS(n, a, b, want); return nil },
		func() error {
			gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, ref, n)
			return nil
		},
	}
	med, err := interleaved(cfg.MinTime, runs)
	if err != nil {
		return nil, err
	}
	viaRegistry, err := bufs[0].Download()
	if err != nil {
		return nil, err
	}
	for _, p := range [][]float32{got, ref, viaRegistry} {
		if err := sameProduct(n, p, want); err != nil {
			return nil, err
		}
	}
	flops := 2 * float64(n) * float64(n) * float64(n)
	rate := func(d time.Duration) float64 { return flops / d.Seconds() / 1e9 }
	name := fmt.Sprintf("SGEMM n=%d, simd.Sgemm (%s), %d cores", n, simd.Path(), runtime.GOMAXPROCS(0))
	return []Result{
		{Name: name, Value: rate(med[0]), Ref: "OpenBLAS cblas_sgemm", RefValue: rate(med[2]), Unit: "GFLOP/s", Goal: 1.0},
		{Name: name, Value: rate(med[0]), Ref: "gonum Sgemm", RefValue: rate(med[3]), Unit: "GFLOP/s", Goal: 6.0},
		{Name: fmt.Sprintf("SGEMM n=%d, kernels.MatMul on cpu", n), Value: rate(med[1]), Ref: "simd.Sgemm", RefValue: rate(med[0]), Unit: "GFLOP/s", Goal: 0.95},
	}, nil
}

// interleaved runs each of runs once (a warm-up), then all of them in
// turn, round after round, until minTime has passed and at least five
// rounds, and returns each one's median run: a load on the machine that
// comes and goes falls on all of them alike, and the median keeps a
// round that one of them lost to it from deciding.
func interleaved(minTime time.Duration, runs []func() error) ([]time.Duration, error) {
	times := make([][]time.Duration, len(runs))
	for _, f := range runs {
		if err := f(); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	for round := 0; round < 5 || time.Since(start) < minTime; round++ {
		for i, f := range runs {
			t := time.Now()
			if err := f(); err != nil {
				return nil, err
			}
			times[i] = append(times[i], time.Since(t))
		}
	}
	med := make([]time.Duration, len(runs))
	for i, ts := range times {
		slices.Sort(ts)
		med[i] = ts[len(ts)/2]
	}
	return med, nil
}
