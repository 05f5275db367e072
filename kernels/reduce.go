package kernels

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/reduce"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/tune"
)

// This file is package reduce's part of the library: reductions of a
// tensor's elements (every element, in row-major order) into a tensor of
// one, and scans.

// The reductions' operations.
const (
	OpSum    = "sum"
	OpMax    = "max"
	OpArgMax = "argmax"
	OpDot    = "dot"
	OpScan   = "scan"
)

// ScanParams are the parameters of Scan.
type ScanParams struct {
	Exclusive bool // element i is the sum of those before it, not up to it
}

var reduceOps = []dispatch.Op{
	{Name: OpSum, Operands: []string{"s", "x"}, Outputs: 1, Check: checkReduction},
	{Name: OpMax, Operands: []string{"m", "x"}, Outputs: 1, Check: checkReduction},
	{Name: OpArgMax, Operands: []string{"i", "x"}, Outputs: 1, Check: checkReduction},
	{Name: OpDot, Operands: []string{"s", "x", "y"}, Outputs: 1, Check: checkDot},
	{Name: OpScan, Operands: []string{"y", "x"}, Outputs: 1, Check: checkScan},
}

// Sum stores in s, a tensor of one element, the sum of x's elements
// (float32 or uint32, as s is).
func Sum(s *gpu.Stream, sc *dispatch.Scope, sum, x tensor.Tensor) error {
	return Registry.Run(s, sc, OpSum, nil, sum, x)
}

// Max stores in m, a tensor of one element, the largest of x's elements:
// NaN if any is NaN, +0 over -0 (package reduce's order).
func Max(s *gpu.Stream, sc *dispatch.Scope, m, x tensor.Tensor) error {
	return Registry.Run(s, sc, OpMax, nil, m, x)
}

// ArgMax stores in i, a uint32 tensor of one element, the row-major
// index of x's largest element, the first among equals (a NaN is the
// largest).
func ArgMax(s *gpu.Stream, sc *dispatch.Scope, i, x tensor.Tensor) error {
	return Registry.Run(s, sc, OpArgMax, nil, i, x)
}

// Dot stores in s, a tensor of one element, the sum of the products of
// x's and y's elements, the two of one shape.
func Dot(s *gpu.Stream, sc *dispatch.Scope, sum, x, y tensor.Tensor) error {
	return Registry.Run(s, sc, OpDot, nil, sum, x, y)
}

// Scan stores in y, of x's shape, the running sums of x's elements in
// row-major order: inclusive, or exclusive when asked.
func Scan(s *gpu.Stream, sc *dispatch.Scope, y, x tensor.Tensor, exclusive bool) error {
	return Registry.Run(s, sc, OpScan, ScanParams{exclusive}, y, x)
}

func checkReduction(ts []tensor.Tensor, _ any) error {
	if ts[0].Len() != 1 {
		return fmt.Errorf("kernels: a reduction into %s: the result is a tensor of one element: %w", ts[0], gpu.ErrSize)
	}
	return nil
}

func checkDot(ts []tensor.Tensor, p any) error {
	if err := checkReduction(ts, p); err != nil {
		return err
	}
	return sameShapes(ts[1:], p)
}

func checkScan(ts []tensor.Tensor, p any) error {
	if _, ok := p.(ScanParams); !ok {
		return fmt.Errorf("kernels: a scan's parameters are a ScanParams, not %T: %w", p, gpu.ErrArgs)
	}
	return sameShapes(ts, p)
}

// reducers holds a Reducer for each stream and tuner, whose scratch a
// stream's reductions share in order.
var reducers = perStream[*reduce.Reducer]{release: (*reduce.Reducer).Release}

// reducerFor returns the Reducer of c's stream and tuner (the registry's,
// or tune.Default()).
func reducerFor(c *dispatch.Call) (*reduce.Reducer, error) {
	tu := c.Tuner
	if tu == nil {
		tu = tune.Default()
	}
	return reducers.get(c.Stream, tu, func(*reduce.Reducer) bool { return true }, func() (*reduce.Reducer, error) {
		return reduce.New(c.Stream.Device(), tu)
	})
}

// flatOf returns t's buffer of T as a vector of its elements; t is
// contiguous.
func flatOf[T tensor.Scalar](t tensor.Tensor) (*gpu.Buffer[T], error) {
	b, err := tensor.Buffer[T](t)
	if err != nil {
		return nil, err
	}
	if b.Len() == t.Len() {
		return b, nil
	}
	return b.Slice(0, t.Len())
}

// unary makes the run of a reduction or scan from one buffer of T into
// another.
func unary[T tensor.Scalar](f func(r *reduce.Reducer, c *dispatch.Call, dst, x *gpu.Buffer[T]) error) func(*reduce.Reducer, *dispatch.Call, []tensor.Tensor) error {
	return func(r *reduce.Reducer, c *dispatch.Call, ts []tensor.Tensor) error {
		dst, err := flatOf[T](ts[0])
		if err != nil {
			return err
		}
		x, err := flatOf[T](ts[1])
		if err != nil {
			return err
		}
		return f(r, c, dst, x)
	}
}

type f32Buf = *gpu.Buffer[float32]
type u32Buf = *gpu.Buffer[uint32]

func reduceKernels() []dispatch.Kernel {
	u32 := tensor.Descriptor{Format: tensor.U32, Layout: tensor.Contiguous}
	k := func(name, op string, run func(*reduce.Reducer, *dispatch.Call, []tensor.Tensor) error, ds ...tensor.Descriptor) dispatch.Kernel {
		return dispatch.Kernel{Name: "kernels/reduce.Reducer." + name, Op: op, Operands: ds, Priority: dispatch.Portable,
			Run: func(c *dispatch.Call, ts []tensor.Tensor) error {
				r, err := reducerFor(c)
				if err != nil {
					return err
				}
				return run(r, c, ts)
			}}
	}
	return []dispatch.Kernel{
		k("Sum", OpSum, unary(func(r *reduce.Reducer, c *dispatch.Call, d, x f32Buf) error { return r.Sum(c.Stream, d, x) }), f32, f32),
		k("SumUint32", OpSum, unary(func(r *reduce.Reducer, c *dispatch.Call, d, x u32Buf) error { return r.SumUint32(c.Stream, d, x) }), u32, u32),
		k("Max", OpMax, unary(func(r *reduce.Reducer, c *dispatch.Call, d, x f32Buf) error { return r.Max(c.Stream, d, x) }), f32, f32),
		k("ArgMax", OpArgMax, func(r *reduce.Reducer, c *dispatch.Call, ts []tensor.Tensor) error {
			i, err := flatOf[uint32](ts[0])
			if err != nil {
				return err
			}
			x, err := flatOf[float32](ts[1])
			if err != nil {
				return err
			}
			return r.ArgMax(c.Stream, i, x)
		}, u32, f32),
		k("Dot", OpDot, func(r *reduce.Reducer, c *dispatch.Call, ts []tensor.Tensor) error {
			bs, err := f32s(ts)
			if err != nil {
				return err
			}
			for i := range bs {
				if bs[i], err = flatOf[float32](ts[i]); err != nil {
					return err
				}
			}
			return r.Dot(c.Stream, bs[0], bs[1], bs[2])
		}, f32, f32, f32),
		k("Scan", OpScan, unary(func(r *reduce.Reducer, c *dispatch.Call, d, x f32Buf) error {
			return r.Scan(c.Stream, d, x, c.Params.(ScanParams).Exclusive)
		}), f32, f32),
		k("ScanUint32", OpScan, unary(func(r *reduce.Reducer, c *dispatch.Call, d, x u32Buf) error {
			return r.ScanUint32(c.Stream, d, x, c.Params.(ScanParams).Exclusive)
		}), u32, u32),
	}
}
