package simd

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
)

// Sgemm computes C = alpha*op(A)*op(B) + beta*C, as gonum's
// blas32.Sgemm (gonum's Implementation.Sgemm) does: C is m x n, op(A)
// m x k and op(B) k x n, each row-major with its rows lda, ldb, ldc
// elements apart; op(X) is X for blas.NoTrans and X's transpose for
// blas.Trans or blas.ConjTrans, so that a transposed A is stored k x m.
// When beta is 0, C is not read (NaN in it does not propagate); when
// alpha is 0 or k is 0, neither A nor B is read and C is only scaled by
// beta, as reference BLAS does (gonum multiplies A and B by an alpha of
// 0, so that NaN in them reaches C). The work is split over runtime.GOMAXPROCS goroutines, the
// caller's among them, when the product is large enough to pay for them.
//
// Each element of C is within about k+k/256+4 roundings (u = 2^-24 each)
// of the exact result, relative to |alpha| times the sum over p of
// |op(A)[i][p]*op(B)[p][j]| plus |beta*C[i][j]|: the products are summed
// in float32 with fused multiply-adds in order of p, 256 at a time
// (the block of k held in cache), each block's sum added into C.
//
// The rules, each an error wrapping ErrArgs, are BLAS's, checked in its
// order: each transpose one of the three; m, n, k >= 0; lda, ldb, ldc at
// least max(1, the columns of the matrix each stores); and, unless m or
// n is 0, a, b and c at least (rows-1)*ld+cols long for the matrix each
// stores. C is written where they hold, nothing where not.
func Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) error {
	g, err := checkGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	if err != nil || m == 0 || n == 0 {
		return err
	}
	if alpha == 0 || k == 0 {
		g.scale()
		return nil
	}
	g.run()
	return nil
}

// gemm is a checked Sgemm's arguments.
type gemm struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	a, b, c        []float32
	lda, ldb, ldc  int
}

// transposed reports whether t transposes its matrix, or an error naming
// the argument when t is no BLAS transpose.
func transposed(name string, t blas.Transpose) (bool, error) {
	switch t {
	case blas.NoTrans:
		return false, nil
	case blas.Trans, blas.ConjTrans:
		return true, nil
	}
	return false, fmt.Errorf("%w: Sgemm: %s is %q, not blas.NoTrans, blas.Trans or blas.ConjTrans", ErrArgs, name, byte(t))
}

// checkGemm returns Sgemm's arguments checked, or an error naming the
// first rule they break.
func checkGemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) (gemm, error) {
	ta, err := transposed("tA", tA)
	if err != nil {
		return gemm{}, err
	}
	tb, err := transposed("tB", tB)
	if err != nil {
		return gemm{}, err
	}
	if m < 0 || n < 0 || k < 0 {
		return gemm{}, fmt.Errorf("%w: Sgemm: m, n, k = %d, %d, %d: each size at least 0", ErrArgs, m, n, k)
	}
	g := gemm{transA: ta, transB: tb, m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc}
	type stored struct {
		name, ldName string
		len          int
		rows, cols   int
		ld           int
	}
	ar, ac := m, k
	if ta {
		ar, ac = k, m
	}
	br, bc := k, n
	if tb {
		br, bc = n, k
	}
	ops := []stored{{"a", "lda", len(a), ar, ac, lda}, {"b", "ldb", len(b), br, bc, ldb}, {"c", "ldc", len(c), m, n, ldc}}
	for _, o := range ops {
		if o.ld < max(1, o.cols) {
			return gemm{}, fmt.Errorf("%w: Sgemm: %s %d is less than max(1, %d), the columns %s stores", ErrArgs, o.ldName, o.ld, o.cols, o.name)
		}
	}
	if m == 0 || n == 0 {
		return g, nil
	}
	for _, o := range ops {
		if o.rows == 0 {
			continue // k of 0: a or b holds nothing to read
		}
		if need := (o.rows-1)*o.ld + o.cols; o.ld > (math.MaxInt-o.cols)/max(1, o.rows-1) || o.len < need {
			return gemm{}, fmt.Errorf("%w: Sgemm: len(%s) %d is less than (%d-1)*%s+%d, the matrix it stores", ErrArgs, o.name, o.len, o.rows, o.ldName, o.cols)
		}
	}
	return g, nil
}

// scale sets C to beta*C, or to 0 without reading it when beta is 0: all
// there is to do when alpha or k is 0.
func (g gemm) scale() {
	if g.beta == 1 {
		return
	}
	for i := range g.m {
		row := g.c[i*g.ldc : i*g.ldc+g.n]
		if g.beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= g.beta
		}
	}
}
