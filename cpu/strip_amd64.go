//go:build !noasm

package cpu

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// useAVX selects the AVX strip; cpuid decides once, tests switch it.
var useAVX = cpuid.CPU.Supports(cpuid.AVX)

// dotStrip runs the AVX strip on blocks of 4 rows x 8 lanes where the
// processor has AVX, and the pure-Go strip on the rest.
func dotStrip(s *DotStrip) {
	if !useAVX {
		dotStripGo(s)
		return
	}
	const f = 4 // bytes of a float32
	lanes8 := s.Lanes &^ 7
	r := 0
	for ; r+4 <= s.Rows && lanes8 > 0; r += 4 {
		for j := 0; j < lanes8; j += 8 {
			dotStrip4x8(unsafe.Pointer(&s.Acc[r*s.AccRow+j]), s.AccRow*f,
				unsafe.Pointer(&s.A[s.AOff+r*s.ARow]), s.ARow*f, s.AK*f,
				unsafe.Pointer(&s.B[s.BOff+r*s.BRow+j]), s.BRow*f, s.BK*f, s.K)
		}
		if lanes8 < s.Lanes {
			for q := r; q < r+4; q++ {
				dotRowsGo(s, q, lanes8, s.Lanes)
			}
		}
	}
	for ; r < s.Rows; r++ {
		dotRowsGo(s, r, 0, s.Lanes)
	}
}

// dotStrip4x8 computes 4 rows of 8 lanes of a strip whose elements Run has
// checked; strides and steps are in bytes, k is at least 1. For each row
// r < 4 and lane j < 8, for t from 0 to k-1 in order:
//
//	acc[r*accRow+j] += a[r*aRow+t*aK] * b[r*bRow+t*bK+j]
//
// with the product and the sum each rounded (VMULPS, then VADDPS).
//
//go:noescape
func dotStrip4x8(acc unsafe.Pointer, accRow int, a unsafe.Pointer, aRow, aK int, b unsafe.Pointer, bRow, bK, k int)
