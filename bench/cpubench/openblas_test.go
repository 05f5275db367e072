//go:build openblas && cgo

package cpubench

import (
	"fmt"
	"testing"
)

func BenchmarkTierSGEMMOpenBLAS(b *testing.B) {
	report(b, func() (Result, error) { return TierSGEMMOpenBLAS(Default(), 1024) })
}

// BenchmarkSIMDSGEMM reports simd.Sgemm's GFLOP/s and its ratios to
// OpenBLAS and to gonum, and the registry's to simd.Sgemm, at each n.
func BenchmarkSIMDSGEMM(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var rs []Result
			var err error
			for b.Loop() {
				if rs, err = SIMDSGEMM(Default(), n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(rs[0].Value, "GFLOP/s")
			b.ReportMetric(rs[0].Ratio(), "x-openblas")
			b.ReportMetric(rs[1].Ratio(), "x-gonum")
			b.ReportMetric(rs[2].Ratio(), "registry/simd")
		})
	}
}
