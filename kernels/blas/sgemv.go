package blas

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"gonum.org/v1/gonum/blas"
)

// Sgemv computes y = alpha*op(A)*x + beta*y on s, as gonum's
// blas32.Sgemv does on the host: A is m x n, row-major with its rows lda
// apart, op(A) is A for blas.NoTrans (x of n elements, y of m) and its
// transpose for blas.Trans or blas.ConjTrans (x of m, y of n); x and y
// are stored incX and incY apart, from their last element when the
// increment is negative. When beta is 0, y is not read; when alpha is 0,
// neither A nor x is (gonum scales y alike). m or n of 0 is a valid call
// that does nothing.
//
// A call that breaks a BLAS rule is refused with an error naming it,
// wrapping gpu.ErrArgs (a transpose, a size, lda, an increment of 0) or
// gpu.ErrBufferLen (a buffer shorter than its matrix or vector reaches).
// Beyond BLAS, each buffer's extent lies within uint32 indices and each
// increment within int32.
func Sgemv(s *gpu.Stream, tA blas.Transpose, m, n int, alpha float32, a *gpu.Buffer[float32], lda int, x *gpu.Buffer[float32], incX int, beta float32, y *gpu.Buffer[float32], incY int) error {
	const entry = "Sgemv"
	trans := false
	switch tA {
	case blas.NoTrans:
	case blas.Trans, blas.ConjTrans:
		trans = true
	default:
		return fmt.Errorf("blas: %s: tA is %q, not blas.NoTrans, blas.Trans or blas.ConjTrans: %w", entry, byte(tA), gpu.ErrArgs)
	}
	if m < 0 || n < 0 {
		return fmt.Errorf("blas: %s: m, n = %d, %d: each size at least 0: %w", entry, m, n, gpu.ErrArgs)
	}
	if lda < max(1, n) {
		return fmt.Errorf("blas: %s: lda = %d, below max(1, n) = %d: %w", entry, lda, max(1, n), gpu.ErrArgs)
	}
	if err := increment(entry, "incX", incX); err != nil {
		return err
	}
	if err := increment(entry, "incY", incY); err != nil {
		return err
	}
	if m == 0 || n == 0 {
		return nil
	}
	lenX, lenY := n, m
	if trans {
		lenX, lenY = m, n
	}
	if err := vector(entry, "x", x, lenX, incX, "incX"); err != nil {
		return err
	}
	if err := vector(entry, "y", y, lenY, incY, "incY"); err != nil {
		return err
	}
	if err := extent(entry, "A", a, m, n, lda, fmt.Sprintf("(%d-1)*lda+%d", m, n)); err != nil {
		return err
	}
	if alpha == 0 && beta == 1 {
		return nil
	}
	um, un := uint32(m), uint32(n)
	ix, iy := int32(incX), int32(incY)
	if trans {
		if alpha == 0 {
			um = 0 // A and x are not read: y = beta*y
		}
		return LaunchGemvT(s, grid(n, gemvLanes), y, a, x, um, un, uint32(lda), ix, iy, alpha, beta)
	}
	if alpha == 0 {
		un = 0
	}
	return LaunchGemvN(s, grid(m, gemvRows), y, a, x, um, un, uint32(lda), ix, iy, alpha, beta)
}
