package blas

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
)

// Sscal computes x = alpha*x on s for x of n elements stored incX apart,
// as gonum's blas32.Sscal does on the host: alpha of 0 zeroes x without
// reading it, and a negative incX, or n of 0, does nothing. A call that
// breaks a BLAS rule is refused with an error naming it, wrapping
// gpu.ErrArgs (n below 0, incX of 0) or gpu.ErrBufferLen (x shorter than
// (n-1)*incX+1).
func Sscal(s *gpu.Stream, n int, alpha float32, x *gpu.Buffer[float32], incX int) error {
	const entry = "Sscal"
	if err := increment(entry, "incX", incX); err != nil {
		return err
	}
	if incX < 0 {
		return nil
	}
	if n < 0 {
		return fmt.Errorf("blas: %s: n = %d, below 0: %w", entry, n, gpu.ErrArgs)
	}
	if n == 0 {
		return nil
	}
	if err := vector(entry, "x", x, n, incX, "incX"); err != nil {
		return err
	}
	return LaunchScal(s, grid(n, 256), x, uint32(n), int32(incX), alpha)
}
