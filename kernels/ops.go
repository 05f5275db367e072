package kernels

import (
	"fmt"
	"slices"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/tensor"
)

// The operations' names, as the registry and the support matrix name
// them.
const (
	OpMatMul = "matmul"
	OpMatVec = "matvec"
)

// ops are the library's operations: their operands, their rules and
// their host references.
var ops = append([]dispatch.Op{
	{Name: OpMatMul, Operands: []string{"c", "a", "b"}, Outputs: 1, Check: checkMatMul, Reference: referenceMatMul},
	{Name: OpMatVec, Operands: []string{"y", "w", "x"}, Outputs: 1, Check: checkMatVec, Reference: referenceMatVec},
}, slices.Concat(nnOps, reduceOps, sortOps)...)

// Registry is the library's registry: its operations and, unless a
// program registers its own kernels before the first call, the
// automatic set.
var Registry = dispatch.New(ops, automatic)

// MatMul computes c = a·b for matrices c (m x n), a (m x k) and b (k x n)
// on stream s, recording the launches without syncing. sc owns the
// temporaries an adapter makes; nil refuses a plan that needs one. The
// shapes must agree ([gpu.ErrSize]).
func MatMul(s *gpu.Stream, sc *dispatch.Scope, c, a, b tensor.Tensor) error {
	return Registry.Run(s, sc, OpMatMul, nil, c, a, b)
}

// MatVec computes y = w·x for a matrix w (rows x cols), x of cols
// elements and y of rows, on stream s, as MatMul does; w may be of a
// block format (GGUF's quantizations).
func MatVec(s *gpu.Stream, sc *dispatch.Scope, y, w, x tensor.Tensor) error {
	return Registry.Run(s, sc, OpMatVec, nil, y, w, x)
}

// checkMatMul is matmul's rule: three matrices whose shapes agree.
func checkMatMul(ts []tensor.Tensor, _ any) error {
	c, a, b := ts[0], ts[1], ts[2]
	if c.Rank() != 2 || a.Rank() != 2 || b.Rank() != 2 {
		return fmt.Errorf("kernels: matmul of c %s, a %s, b %s: the operands are matrices: %w", c, a, b, gpu.ErrSize)
	}
	if a.Dim(1) != b.Dim(0) || c.Dim(0) != a.Dim(0) || c.Dim(1) != b.Dim(1) {
		return fmt.Errorf("kernels: matmul of c %v, a %v, b %v: c (m x n) = a (m x k) · b (k x n): %w", c.Shape(), a.Shape(), b.Shape(), gpu.ErrSize)
	}
	return nil
}

// checkMatVec is matvec's rule: a matrix and two vectors whose lengths
// agree.
func checkMatVec(ts []tensor.Tensor, _ any) error {
	y, w, x := ts[0], ts[1], ts[2]
	if w.Rank() != 2 || y.Rank() != 1 || x.Rank() != 1 {
		return fmt.Errorf("kernels: matvec of y %s, w %s, x %s: w is a matrix, x and y vectors: %w", y, w, x, gpu.ErrSize)
	}
	if x.Dim(0) != w.Dim(1) || y.Dim(0) != w.Dim(0) {
		return fmt.Errorf("kernels: matvec of y %v, w %v, x %v: y (rows) = w (rows x cols) · x (cols): %w", y.Shape(), w.Shape(), x.Shape(), gpu.ErrSize)
	}
	return nil
}
