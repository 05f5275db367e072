package matmul

// This file is Sgemm, the BLAS entry point: its arguments' rules, checked
// on the host, and the launch of the member the tuner chooses.

import (
	"fmt"
	"math"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/tune"
	"gonum.org/v1/gonum/blas"
)

// gemm is the arguments of one SGEMM, C = alpha*op(A)*op(B) + beta*C, as
// Sgemm takes them.
type gemm struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	a, b, c        *gpu.Buffer[float32]
	lda, ldb, ldc  int
}

// product returns the arguments of C = A*B of shape p, packed.
func product(p Shape, C, A, B *gpu.Buffer[float32]) gemm {
	return gemm{m: p.M, n: p.N, k: p.K, alpha: 1, a: A, b: B, c: C, lda: p.K, ldb: p.N, ldc: p.N}
}

// Sgemm computes C = alpha*op(A)*op(B) + beta*C on s, as gonum's
// blas32.Sgemm does on the host: C is m x n, op(A) m x k and op(B) k x n,
// each row-major with its rows lda, ldb, ldc elements apart; op(X) is X
// for blas.NoTrans and X's transpose for blas.Trans (or blas.ConjTrans,
// the same for real matrices), so that a transposed A is stored k x m.
// When beta is 0, C is not read (NaN in it does not propagate); when
// alpha is 0, neither A nor B is. It launches the member of Tiled that tu
// chooses for the shape m x n x k (a nil tu is tune.Default).
//
// The arguments follow BLAS's rules, and one that breaks one is refused
// with an error naming it, wrapping gpu.ErrArgs (a transpose, a size, a
// leading dimension) or gpu.ErrBufferLen (a buffer shorter than
// (rows-1)*ld+cols of its stored matrix); m or n of 0 is a valid call
// that does nothing. Beyond BLAS, each size is at most 65536, each
// matrix's elements under 2^31 and its last element's index below 2^32,
// so that the kernel's uint32 indices hold.
func Sgemm(tu *tune.Tuner, s *gpu.Stream, tA, tB blas.Transpose, m, n, k int, alpha float32, a *gpu.Buffer[float32], lda int, b *gpu.Buffer[float32], ldb int, beta float32, c *gpu.Buffer[float32], ldc int) error {
	ta, err := transposed("tA", tA)
	if err != nil {
		return err
	}
	tb, err := transposed("tB", tB)
	if err != nil {
		return err
	}
	g := gemm{transA: ta, transB: tb, m: m, n: n, k: k, alpha: alpha, beta: beta, a: a, b: b, c: c, lda: lda, ldb: ldb, ldc: ldc}
	_, err = g.run(tu, s, "Sgemm")
	return err
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
	return false, fmt.Errorf("matmul: Sgemm: %s is %q, not blas.NoTrans, blas.Trans or blas.ConjTrans: %w", name, byte(t), gpu.ErrArgs)
}

// operand is one matrix of a gemm as it is stored: rows x cols elements,
// rows ld apart.
type operand struct {
	name, ldName string
	buf          *gpu.Buffer[float32]
	rows, cols   int
	ld           int
}

// operands returns C, A and B as they are stored.
func (g gemm) operands() []operand {
	ar, ac := g.m, g.k
	if g.transA {
		ar, ac = g.k, g.m
	}
	br, bc := g.k, g.n
	if g.transB {
		br, bc = g.n, g.k
	}
	return []operand{
		{"C", "ldc", g.c, g.m, g.n, g.ldc},
		{"A", "lda", g.a, ar, ac, g.lda},
		{"B", "ldb", g.b, br, bc, g.ldb},
	}
}

// check returns an error naming the rule that g breaks, in the order
// BLAS checks them, or nil.
func (g gemm) check(entry string) error {
	if g.m < 0 || g.n < 0 || g.k < 0 {
		return fmt.Errorf("matmul: %s: m, n, k = %d, %d, %d: each size at least 0: %w", entry, g.m, g.n, g.k, gpu.ErrArgs)
	}
	ops := g.operands()
	for _, o := range ops {
		if o.ld < max(1, o.cols) {
			return fmt.Errorf("matmul: %s: %s = %d, below max(1, %d), the columns %s stores: %w", entry, o.ldName, o.ld, o.cols, o.name, gpu.ErrArgs)
		}
	}
	if g.m == 0 || g.n == 0 {
		return nil
	}
	if err := (Shape{g.m, g.n, max(g.k, 1)}).check(); err != nil {
		return err
	}
	for _, o := range ops {
		if o.rows == 0 {
			continue // k of 0: A or B holds nothing to read
		}
		need := uint64(o.rows-1)*uint64(o.ld) + uint64(o.cols)
		if need > math.MaxUint32 {
			return fmt.Errorf("matmul: %s: %s's last element (%d-1)*%s+%d = %d lies past 2^32, which the kernel's uint32 indices reach: %w", entry, o.name, o.rows, o.ldName, o.cols, need, gpu.ErrArgs)
		}
		if uint64(o.buf.Len()) < need {
			return fmt.Errorf("matmul: %s: %s holds %d elements, (%d-1)*%s+%d = %d needed: %w", entry, o.name, o.buf.Len(), o.rows, o.ldName, o.cols, need, gpu.ErrBufferLen)
		}
	}
	return nil
}

// run checks g, then launches on s the member tu chooses for its shape
// and returns the choice; a call BLAS returns from without work (m or n
// of 0, or C unchanged: alpha or k of 0 with beta 1) launches nothing and
// returns no choice.
func (g gemm) run(tu *tune.Tuner, s *gpu.Stream, entry string) (*tune.Choice, error) {
	if err := g.check(entry); err != nil {
		return nil, err
	}
	if g.m == 0 || g.n == 0 || (g.alpha == 0 || g.k == 0) && g.beta == 1 {
		return nil, nil
	}
	c, err := tune.Choose(tu, s, Family, Shape{g.m, g.n, max(g.k, 1)})
	if err != nil {
		return nil, err
	}
	return c, g.launch(s, c.Member)
}

// launch launches member k on s for g, which check has passed.
func (g gemm) launch(s *gpu.Stream, k *gpu.Kernel) error {
	tile, ok := k.Comptime().(Tile)
	if !ok {
		return fmt.Errorf("matmul: %s is no member of Tiled, TiledWave or TiledVec: %w", k.Name(), gpu.ErrArgs)
	}
	depth := g.k
	if g.alpha == 0 {
		depth = 0 // BLAS reads neither A nor B then: C = beta*C
	}
	flag := func(b bool) uint32 {
		if b {
			return 1
		}
		return 0
	}
	m, n := uint32(g.m), uint32(g.n)
	return s.Launch(k, Groups(tile, m, n), g.c, g.a, g.b, flag(g.transA), flag(g.transB), m, n, uint32(depth),
		uint32(g.lda), uint32(g.ldb), uint32(g.ldc), g.alpha, g.beta)
}
