//go:build openblas && cgo

package cpubench

import "testing"

func BenchmarkTierSGEMMOpenBLAS(b *testing.B) {
	report(b, func() (Result, error) { return TierSGEMMOpenBLAS(Default(), 1024) })
}
