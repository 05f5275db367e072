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
// apart: every lane, 16 or 8 at a time in assembly and the rest in Go.
func dotQuad(s *DotStrip, r, i, j, accStep, aStep, bStep, axis int) {
	const f = 4 // bytes of a float32
	acc := s.AccOff + r*s.AccRow + i*s.AccI + j*s.AccJ
	a := s.AOff + r*s.ARow + i*s.AI
	b := s.BOff + r*s.BRow + j*s.BJ
	l := 0
	if bStep == 0 { // the four cells share their B elements
		for ; l+16 <= s.Lanes; l += 16 {
			dotStrip4x16(unsafe.Pointer(&s.Acc[acc+l]), accStep*f,
				unsafe.Pointer(&s.A[a]), aStep*f, s.AK*f,
				unsafe.Pointer(&s.B[b+l]), s.BK*f, s.K)
		}
	}
	for ; l+8 <= s.Lanes; l += 8 {
		dotStrip4x8(unsafe.Pointer(&s.Acc[acc+l]), accStep*f,
			unsafe.Pointer(&s.A[a]), aStep*f, s.AK*f,
			unsafe.Pointer(&s.B[b+l]), bStep*f, s.BK*f, s.K)
	}
	if l == s.Lanes {
		return
	}
	for q := range 4 {
		if axis == quadI {
			dotCellGo(s, r, i+q, j, l, s.Lanes)
		} else {
			dotCellGo(s, r+q, i, j, l, s.Lanes)
		}
	}
}

// dotStrip4x16 computes 4 cells of 16 lanes that share their B elements,
// of a strip whose elements Run has checked; strides and steps are in
// bytes, k is at least 1. For each cell q < 4 and lane l < 16, for t from
// 0 to k-1 in order:
//
//	acc[q*accStep+l] += a[q*aStep+t*aK] * b[t*bK+l]
//
// with the product and the sum each rounded (VMULPS, then VADDPS): the B
// elements are loaded once for the four cells, the A element once for the
// 16 lanes.
//
//go:noescape
func dotStrip4x16(acc unsafe.Pointer, accStep int, a unsafe.Pointer, aStep, aK int, b unsafe.Pointer, bK, k int)

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
