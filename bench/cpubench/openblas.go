//go:build openblas && cgo

package cpubench

// This file puts the host tier's SGEMM, written as the tutorials write it,
// beside OpenBLAS's cblas_sgemm in the same run. It links OpenBLAS (the
// Debian package libopenblas-dev) and builds only with the tag openblas:
//
//	go test -tags openblas -run '^$' -bench TierSGEMMOpenBLAS ./bench/cpubench

// #cgo LDFLAGS: -lopenblas
// #include <cblas.h>
import "C"

import (
	"fmt"
	"runtime"

	"github.com/goxpu/xpu/gpu/cpu"
)

// sgemmOpenBLAS computes c = a*b for row-major n x n matrices on every
// thread OpenBLAS starts.
func sgemmOpenBLAS(n int, a, b, c []float32) {
	C.cblas_sgemm(C.CblasRowMajor, C.CblasNoTrans, C.CblasNoTrans, C.blasint(n), C.blasint(n), C.blasint(n),
		1, (*C.float)(&a[0]), C.blasint(n), (*C.float)(&b[0]), C.blasint(n), 0, (*C.float)(&c[0]), C.blasint(n))
}

// TierSGEMMOpenBLAS compares the tutorials' SGEMM on the host tier with
// OpenBLAS at n x n.
func TierSGEMMOpenBLAS(cfg Config, n int) (Result, error) {
	r := Result{Name: fmt.Sprintf("SGEMM n=%d as the tutorials write it, host tier, %d cores", n, runtime.GOMAXPROCS(0)),
		Ref: "OpenBLAS cblas_sgemm", Unit: "GFLOP/s", Goal: 0.5}
	a, b, want := randomFloats(n*n, 4), randomFloats(n*n, 5), make([]float32, n*n)
	flops := 2 * float64(n) * float64(n) * float64(n)
	d, _ := measure(cfg.MinTime, func() error { sgemmOpenBLAS(n, a, b, want); return nil })
	r.RefValue = flops / d.Seconds() / 1e9
	dev, err := openTier(cpu.TierHost)
	if err != nil {
		return r, err
	}
	defer dev.Close()
	got, d, err := gemmOn(cfg, dev, n, a, b, sgemmTiled(n))
	if err != nil {
		return r, err
	}
	if err := sameProduct(n, got, want); err != nil {
		return r, err
	}
	r.Value = flops / d.Seconds() / 1e9
	return r, nil
}
