package blas

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
)

// Saxpy computes y = alpha*x + y on s for x and y of n elements stored
// incX and incY apart (from the last element when negative), as gonum's
// blas32.Saxpy does on the host; alpha of 0 and n of 0 do nothing. A call
// that breaks a BLAS rule is refused with an error naming it, wrapping
// gpu.ErrArgs (n below 0, an increment of 0) or gpu.ErrBufferLen (a
// buffer shorter than its vector reaches).
func Saxpy(s *gpu.Stream, n int, alpha float32, x *gpu.Buffer[float32], incX int, y *gpu.Buffer[float32], incY int) error {
	const entry = "Saxpy"
	if err := increment(entry, "incX", incX); err != nil {
		return err
	}
	if err := increment(entry, "incY", incY); err != nil {
		return err
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
	if err := vector(entry, "y", y, n, incY, "incY"); err != nil {
		return err
	}
	if alpha == 0 {
		return nil
	}
	return LaunchAxpy(s, grid(n, 256), y, x, uint32(n), int32(incX), int32(incY), alpha)
}
