package simd

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// ErrArgs is wrapped by every error the mat-vecs return: a shape or a
// length that breaks a rule of theirs.
var ErrArgs = errors.New("simd: bad arguments")

// MatVecQ8_0 sets y[r], for r < rows, to the dot product of row r of the
// Q8_0 matrix w with x (DotQ8_0). w holds rows*cols/32 blocks, row-major:
// row r is the cols/32 consecutive blocks from block r*cols/32. The rows
// are split into contiguous ranges over runtime.GOMAXPROCS goroutines,
// the caller's among them.
//
// The rules, each an error wrapping ErrArgs: rows >= 0, cols >= 0 and a
// multiple of 32; len(y) >= rows, len(x) >= cols and len(w) >=
// rows*cols/32*34. y is written where they hold, nothing where not.
func MatVecQ8_0(y []float32, w []byte, x []float32, rows, cols int) error {
	return matVec(y, w, x, rows, cols, BlockValues, BlockQ8_0, "MatVecQ8_0", dotQ8_0)
}

// MatVecQ4_0 is MatVecQ8_0 for a Q4_0 matrix: len(w) >= rows*cols/32*18.
func MatVecQ4_0(y []float32, w []byte, x []float32, rows, cols int) error {
	return matVec(y, w, x, rows, cols, BlockValues, BlockQ4_0, "MatVecQ4_0", dotQ4_0)
}

// matVec checks the rules of MatVecQ8_0 for blocks of values values in
// size bytes and runs dot on each row.
func matVec(y []float32, w []byte, x []float32, rows, cols, values, size int, name string, dot func([]byte, []float32) float32) error {
	switch {
	case rows < 0 || cols < 0:
		return fmt.Errorf("%w: %s: rows %d and cols %d must not be negative", ErrArgs, name, rows, cols)
	case cols%values != 0:
		return fmt.Errorf("%w: %s: cols %d is not a multiple of %d", ErrArgs, name, cols, values)
	case len(y) < rows:
		return fmt.Errorf("%w: %s: len(y) %d is less than rows %d", ErrArgs, name, len(y), rows)
	case len(x) < cols:
		return fmt.Errorf("%w: %s: len(x) %d is less than cols %d", ErrArgs, name, len(x), cols)
	}
	rowBytes := cols / values * size
	if rows > 0 && rowBytes > math.MaxInt/rows || len(w) < rows*rowBytes {
		return fmt.Errorf("%w: %s: len(w) %d is less than rows %d x %d blocks of %d bytes", ErrArgs, name, len(w), rows, cols/values, size)
	}
	m := matrix{y: y, w: w, x: x[:cols], rowBytes: rowBytes, dot: dot}
	if parts := min(runtime.GOMAXPROCS(0), rows); parts > 1 {
		m.split(rows, parts)
	} else {
		m.rows(0, rows)
	}
	return nil
}

// matrix is a checked mat-vec's operands: row r of w is
// w[r*rowBytes:(r+1)*rowBytes].
type matrix struct {
	y        []float32
	w        []byte
	x        []float32
	rowBytes int
	dot      func([]byte, []float32) float32
}

// rows sets y[r] for lo <= r < hi.
func (m matrix) rows(lo, hi int) {
	for r := lo; r < hi; r++ {
		m.y[r] = m.dot(m.w[r*m.rowBytes:(r+1)*m.rowBytes], m.x)
	}
}

// split runs rows 0 to n in parts contiguous ranges, the first on the
// caller's goroutine; a method of its own so that the one-goroutine path
// allocates nothing. It allocates its state once and a start for each
// goroutine.
func (m matrix) split(n, parts int) {
	s := &matrixSplit{m: m, n: n, parts: parts}
	s.wg.Add(parts - 1)
	for p := 1; p < parts; p++ {
		go s.part(p)
	}
	s.part(0)
	s.wg.Wait()
}

// matrixSplit is a mat-vec split in ranges of rows.
type matrixSplit struct {
	m        matrix
	n, parts int
	wg       sync.WaitGroup // the goroutines other than the caller's
}

// part computes the pth range of rows, and is done with it in s.wg
// unless it is the caller's.
func (s *matrixSplit) part(p int) {
	s.m.rows(s.n*p/s.parts, s.n*(p+1)/s.parts)
	if p > 0 {
		s.wg.Done()
	}
}
