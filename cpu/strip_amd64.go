//go:build !noasm

package cpu

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// useAVX selects the AVX strip; cpuid decides once, tests switch it.
var useAVX = cpuid.CPU.Supports(cpuid.AVX)

// dotStrip runs the AVX strip on quads of four cells x 8 lanes where the
// processor has AVX, and the pure-Go strip on the rest. The four cells
// of a quad differ in i where a micro-tile has four rows or more, else
// in r.
func dotStrip(s *DotStrip) {
	if !useAVX || s.Lanes < 8 {
		dotStripGo(s)
		return
	}
	for r := 0; r < s.Rows; {
		switch {
		case s.I >= 4:
			for j := range s.J {
				i := 0
				for ; i+4 <= s.I; i += 4 {
					dotQuad(s, r, i, j, s.AccI, s.AI, 0, quadI)
				}
				for ; i < s.I; i++ {
					dotCellGo(s, r, i, j, 0, s.Lanes)
				}
			}
			r++
		case r+4 <= s.Rows:
			for i := range s.I {
				for j := range s.J {
					dotQuad(s, r, i, j, s.AccRow, s.ARow, s.BRow, quadR)
				}
			}
			r += 4
		default:
			for i := range s.I {
				for j := range s.J {
					dotCellGo(s, r, i, j, 0, s.Lanes)
				}
			}
			r++
		}
	}
}

// quadI and quadR say along which axis the cells of a quad lie.
const (
	quadI = iota
	quadR
)

// dotQuad computes the four cells starting at cell (i, j) of row r whose
// accumulators, A and B elements lie accStep, aStep and bStep elements
// apart: every lane, 8 at a time in assembly and the rest in Go.
func dotQuad(s *DotStrip, r, i, j, accStep, aStep, bStep, axis int) {
	const f = 4 // bytes of a float32
	acc := s.AccOff + r*s.AccRow + i*s.AccI + j*s.AccJ
	a := s.AOff + r*s.ARow + i*s.AI
	b := s.BOff + r*s.BRow + j*s.BJ
	lanes8 := s.Lanes &^ 7
	for l := 0; l < lanes8; l += 8 {
		dotStrip4x8(unsafe.Pointer(&s.Acc[acc+l]), accStep*f,
			unsafe.Pointer(&s.A[a]), aStep*f, s.AK*f,
			unsafe.Pointer(&s.B[b+l]), bStep*f, s.BK*f, s.K)
	}
	if lanes8 == s.Lanes {
		return
	}
	for q := range 4 {
		if axis == quadI {
			dotCellGo(s, r, i+q, j, lanes8, s.Lanes)
		} else {
			dotCellGo(s, r+q, i, j, lanes8, s.Lanes)
		}
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
