package kernels

import (
	"fmt"
	"math"
	"slices"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/nn"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/tune"
)

// This file is the neural-network layers of package nn as operations:
// row-wise ones over a tensor's last dimension (its rows the product of
// the others), element-wise ones over any shape.

// The layers' operations.
const (
	OpSoftmax   = "softmax"
	OpRMSNorm   = "rmsnorm"
	OpLayerNorm = "layernorm"
	OpSiLU      = "silu"
	OpGELU      = "gelu"
	OpRoPE      = "rope"
	OpAttention = "attention"
	OpAdd       = "add"
	OpMul       = "mul"
)

// NormParams are the parameters of RMSNorm and LayerNorm.
type NormParams struct{ Eps float32 }

// RoPEParams are the parameters of RoPE.
type RoPEParams struct{ Theta float32 }

// AttentionParams are the parameters of Attention: the first query
// token's position in the cache, and the scores' scale (0 for
// 1/sqrt(dim)).
type AttentionParams struct {
	Start int
	Scale float32
}

var nnOps = []dispatch.Op{
	{Name: OpSoftmax, Operands: []string{"y", "x"}, Outputs: 1, Check: sameShapes},
	{Name: OpRMSNorm, Operands: []string{"y", "x", "w"}, Outputs: 1, Check: checkNorm},
	{Name: OpLayerNorm, Operands: []string{"y", "x", "w", "b"}, Outputs: 1, Check: checkNorm},
	{Name: OpSiLU, Operands: []string{"y", "x"}, Outputs: 1, Check: sameShapes},
	{Name: OpGELU, Operands: []string{"y", "x"}, Outputs: 1, Check: sameShapes},
	{Name: OpRoPE, Operands: []string{"y", "x", "pos"}, Outputs: 1, Check: checkRoPE},
	{Name: OpAttention, Operands: []string{"o", "q", "k", "v"}, Outputs: 1, Check: checkAttention},
	{Name: OpAdd, Operands: []string{"y", "a", "b"}, Outputs: 1, Check: allShapes},
	{Name: OpMul, Operands: []string{"y", "a", "b"}, Outputs: 1, Check: allShapes},
}

// Softmax stores in y the softmax of each row of x (its last dimension).
func Softmax(s *gpu.Stream, sc *dispatch.Scope, y, x tensor.Tensor) error {
	return Registry.Run(s, sc, OpSoftmax, nil, y, x)
}

// RMSNorm stores in y each row of x divided by its root mean square
// (plus eps) and scaled by w, a vector of the rows' length.
func RMSNorm(s *gpu.Stream, sc *dispatch.Scope, y, x, w tensor.Tensor, eps float32) error {
	return Registry.Run(s, sc, OpRMSNorm, NormParams{eps}, y, x, w)
}

// LayerNorm stores in y each row of x centred on its mean, divided by
// its standard deviation (plus eps), scaled by w and shifted by b.
func LayerNorm(s *gpu.Stream, sc *dispatch.Scope, y, x, w, b tensor.Tensor, eps float32) error {
	return Registry.Run(s, sc, OpLayerNorm, NormParams{eps}, y, x, w, b)
}

// SiLU stores x / (1 + exp(-x)) in y.
func SiLU(s *gpu.Stream, sc *dispatch.Scope, y, x tensor.Tensor) error {
	return Registry.Run(s, sc, OpSiLU, nil, y, x)
}

// GELU stores the tanh approximation of x's Gaussian error linear unit
// in y.
func GELU(s *gpu.Stream, sc *dispatch.Scope, y, x tensor.Tensor) error {
	return Registry.Run(s, sc, OpGELU, nil, y, x)
}

// RoPE rotates each head of x (tokens x heads x dim) by its token's
// position in pos (tokens, uint32) into y, the pairs of a head turning
// by pos * theta^(-2i/dim).
func RoPE(s *gpu.Stream, sc *dispatch.Scope, y, x, pos tensor.Tensor, theta float32) error {
	return Registry.Run(s, sc, OpRoPE, RoPEParams{theta}, y, x, pos)
}

// Attention stores in o (tokens x heads x dim) the causal attention of the
// queries q (of o's shape) over the KV caches k and v (ctx x kvHeads x
// dim), query token i at position start+i seeing positions 0 through
// start+i, heads a multiple of kvHeads (grouped-query attention). A
// scale of 0 scales the scores by 1/sqrt(dim).
func Attention(s *gpu.Stream, sc *dispatch.Scope, o, q, k, v tensor.Tensor, start int, scale float32) error {
	return Registry.Run(s, sc, OpAttention, AttentionParams{Start: start, Scale: scale}, o, q, k, v)
}

// Add stores a + b in y, element by element; the three of one shape.
func Add(s *gpu.Stream, sc *dispatch.Scope, y, a, b tensor.Tensor) error {
	return Registry.Run(s, sc, OpAdd, nil, y, a, b)
}

// Mul stores a * b in y, element by element; the three of one shape.
func Mul(s *gpu.Stream, sc *dispatch.Scope, y, a, b tensor.Tensor) error {
	return Registry.Run(s, sc, OpMul, nil, y, a, b)
}

// sameShapes is the rule of an operation whose output, its first
// operand, has the shape of its first input, its second.
func sameShapes(ts []tensor.Tensor, _ any) error {
	if !slices.Equal(ts[0].Shape(), ts[1].Shape()) {
		return fmt.Errorf("kernels: an output %v of an input %v: the output has the input's shape: %w", ts[0].Shape(), ts[1].Shape(), gpu.ErrSize)
	}
	return nil
}

// allShapes is the rule of an element-wise operation: every operand of
// one shape.
func allShapes(ts []tensor.Tensor, p any) error {
	for i := 1; i < len(ts); i++ {
		if err := sameShapes([]tensor.Tensor{ts[0], ts[i]}, p); err != nil {
			return err
		}
	}
	return nil
}

// checkNorm is the norms' rule: y of x's shape, the weight (and bias) a
// vector of a row's length, and the parameters' type.
func checkNorm(ts []tensor.Tensor, p any) error {
	if err := sameShapes(ts, p); err != nil {
		return err
	}
	if _, ok := p.(NormParams); !ok {
		return fmt.Errorf("kernels: a norm's parameters are a NormParams, not %T: %w", p, gpu.ErrArgs)
	}
	cols := ts[1].Dim(ts[1].Rank() - 1)
	for _, v := range ts[2:] {
		if v.Rank() != 1 || v.Dim(0) != cols {
			return fmt.Errorf("kernels: a norm of x %v takes vectors of %d, not %v: %w", ts[1].Shape(), cols, v.Shape(), gpu.ErrSize)
		}
	}
	return nil
}

// checkRoPE is RoPE's rule: x of three dimensions with an even last one,
// y of its shape, a position per token.
func checkRoPE(ts []tensor.Tensor, p any) error {
	if err := sameShapes(ts, p); err != nil {
		return err
	}
	if _, ok := p.(RoPEParams); !ok {
		return fmt.Errorf("kernels: RoPE's parameters are a RoPEParams, not %T: %w", p, gpu.ErrArgs)
	}
	x, pos := ts[1], ts[2]
	if x.Rank() != 3 || x.Dim(2)%2 != 0 || pos.Rank() != 1 || pos.Dim(0) != x.Dim(0) {
		return fmt.Errorf("kernels: RoPE of x %v, pos %v: x is tokens x heads x dim, dim even, pos a position per token: %w", x.Shape(), pos.Shape(), gpu.ErrSize)
	}
	return nil
}

// attentionShape returns the shape of an attention's operands.
func attentionShape(ts []tensor.Tensor, p AttentionParams) nn.AttentionShape {
	q, k := ts[1], ts[2]
	u := func(n int) uint32 { return uint32(min(max(n, 0), 1<<32-1)) }
	return nn.AttentionShape{Tokens: u(q.Dim(0)), Heads: u(q.Dim(1)), KVHeads: u(k.Dim(1)), Dim: u(q.Dim(2)), Ctx: u(k.Dim(0)), Start: u(p.Start)}
}

// checkAttention is attention's rule: o and q of one shape, k and v of
// another, of the head dimension; the rest is nn's.
func checkAttention(ts []tensor.Tensor, p any) error {
	ap, ok := p.(AttentionParams)
	if !ok {
		return fmt.Errorf("kernels: attention's parameters are an AttentionParams, not %T: %w", p, gpu.ErrArgs)
	}
	o, q, k, v := ts[0], ts[1], ts[2], ts[3]
	if q.Rank() != 3 || k.Rank() != 3 || !slices.Equal(o.Shape(), q.Shape()) || !slices.Equal(k.Shape(), v.Shape()) || k.Dim(2) != q.Dim(2) || ap.Start < 0 {
		return fmt.Errorf("kernels: attention of o %v, q %v, k %v, v %v from position %d: o and q are tokens x heads x dim, k and v ctx x kvHeads x dim: %w", o.Shape(), q.Shape(), k.Shape(), v.Shape(), ap.Start, gpu.ErrSize)
	}
	return nil
}

// runAttention runs nn.Attend.
func runAttention(c *dispatch.Call, ts []tensor.Tensor) error {
	bs, err := f32s(ts)
	if err != nil {
		return err
	}
	p := c.Params.(AttentionParams)
	a := attentionShape(ts, p)
	scale := p.Scale
	if scale == 0 {
		scale = float32(1 / math.Sqrt(float64(a.Dim)))
	}
	return nn.Attend(c.Tuner, c.Stream, bs[0], bs[1], bs[2], bs[3], a, scale)
}

// rowsCols returns x's rows (the product of all but its last dimension)
// and columns, as uint32.
func rowsCols(x tensor.Tensor) (rows, cols uint32, err error) {
	c := x.Dim(x.Rank() - 1)
	if x.Rank() == 0 {
		c = 1
	}
	r := x.Len() / c
	if r*c >= 1<<32 {
		return 0, 0, fmt.Errorf("kernels: %s: the layers index below 2^32 elements: %w", x, gpu.ErrSize)
	}
	return uint32(r), uint32(c), nil
}

// f32s returns the float32 buffers of ts.
func f32s(ts []tensor.Tensor) ([]*gpu.Buffer[float32], error) {
	bs := make([]*gpu.Buffer[float32], len(ts))
	for i, t := range ts {
		b, err := tensor.Buffer[float32](t)
		if err != nil {
			return nil, err
		}
		bs[i] = b
	}
	return bs, nil
}

// nnKernels are the automatic set's entries of package nn.
func nnKernels() []dispatch.Kernel {
	u32 := tensor.Descriptor{Format: tensor.U32, Layout: tensor.Contiguous}
	k := func(name, op string, run func(c *dispatch.Call, ts []tensor.Tensor) error, ds ...tensor.Descriptor) dispatch.Kernel {
		return dispatch.Kernel{Name: "kernels/nn." + name, Op: op, Operands: ds, Priority: dispatch.Portable, Run: run}
	}
	return []dispatch.Kernel{
		k("Softmax", OpSoftmax, runRows(runSoftmax), f32, f32),
		k("RMSNorm", OpRMSNorm, runRows(func(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error {
			return nn.LaunchRMSNorm(c.Stream, nn.RowGroups(rows), b[0], b[1], b[2], rows, cols, c.Params.(NormParams).Eps)
		}), f32, f32, f32),
		k("LayerNorm", OpLayerNorm, runRows(func(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error {
			return nn.LaunchLayerNorm(c.Stream, nn.RowGroups(rows), b[0], b[1], b[2], b[3], rows, cols, c.Params.(NormParams).Eps)
		}), f32, f32, f32, f32),
		k("SiLU", OpSiLU, runRows(func(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error {
			return nn.LaunchSiLU(c.Stream, nn.ElemGroups(rows*cols), b[0], b[1], rows*cols)
		}), f32, f32),
		k("GELU", OpGELU, runRows(func(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error {
			return nn.LaunchGELU(c.Stream, nn.ElemGroups(rows*cols), b[0], b[1], rows*cols)
		}), f32, f32),
		k("RoPE", OpRoPE, runRoPE, f32, f32, u32),
		k("Attention", OpAttention, runAttention, f32, f32, f32, f32),
		k("Add", OpAdd, runRows(func(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error {
			return nn.LaunchAdd(c.Stream, nn.ElemGroups(rows*cols), b[0], b[1], b[2], rows*cols)
		}), f32, f32, f32),
		k("Mul", OpMul, runRows(func(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error {
			return nn.LaunchMul(c.Stream, nn.ElemGroups(rows*cols), b[0], b[1], b[2], rows*cols)
		}), f32, f32, f32),
	}
}

// runRows runs a layer over its input's rows and columns on the float32
// buffers of its operands.
func runRows(f func(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error) func(*dispatch.Call, []tensor.Tensor) error {
	return func(c *dispatch.Call, ts []tensor.Tensor) error {
		rows, cols, err := rowsCols(ts[1])
		if err != nil {
			return err
		}
		bs, err := f32s(ts)
		if err != nil {
			return err
		}
		return f(c, bs, rows, cols)
	}
}

// SoftmaxFormPays is the question the softmax asks its tuner: whether
// nn.SoftmaxStored, which stores each exponential and scales it in place,
// beats nn.SoftmaxOnline, which reads x twice, writes y once and takes
// two exponentials an element, per device and shape rounded up to powers
// of two ("rows=1024,cols=4096"). A CPU, whose rows stay in cache, runs
// the first faster; lavapipe, whose stores cost more than an
// exponential, and a GPU's memory the second. tune.Tuner.Force["pays/"+
// SoftmaxFormPays] = "stored" (or "online") pins a form.
const SoftmaxFormPays = "kernels/nn.softmax-stored"

// runSoftmax runs the softmax of rows x cols in the form c's tuner
// answers (formPays).
func runSoftmax(c *dispatch.Call, b []*gpu.Buffer[float32], rows, cols uint32) error {
	d, g := c.Stream.Device(), nn.RowGroups(rows)
	form := func(name string, f nn.SoftmaxForm) tune.Variant {
		k, _ := nn.SoftmaxTemplate.Member(f) // both forms are members
		return tune.Variant{Name: name, Hash: tune.CodeHash(d, k),
			Run: func() error { return nn.LaunchSoftmax(c.Stream, g, f, b[0], b[1], rows, cols) }}
	}
	stored, online := form("stored", nn.SoftmaxForm{}), form("online", nn.SoftmaxForm{Online: true})
	pays, err := formPays(c, SoftmaxFormPays, int(rows), int(cols), stored, online)
	if err != nil {
		return fmt.Errorf("kernels: the softmax's form: %w", err)
	}
	if pays {
		return stored.Run()
	}
	return online.Run()
}

// runRoPE runs nn.RoPE.
func runRoPE(c *dispatch.Call, ts []tensor.Tensor) error {
	bs, err := f32s(ts[:2])
	if err != nil {
		return err
	}
	pos, err := tensor.Buffer[uint32](ts[2])
	if err != nil {
		return err
	}
	x := ts[1]
	if x.Len() >= 1<<32 {
		return fmt.Errorf("kernels: RoPE of %s: it indexes below 2^32 elements: %w", x, gpu.ErrSize)
	}
	tokens, heads, dim := uint32(x.Dim(0)), uint32(x.Dim(1)), uint32(x.Dim(2))
	return nn.LaunchRoPE(c.Stream, nn.ElemGroups(tokens*heads*dim/2), bs[0], bs[1], pos, tokens, heads, dim, c.Params.(RoPEParams).Theta)
}
