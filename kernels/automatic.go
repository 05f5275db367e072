package kernels

import (
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/layout"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/kernels/tensor"
)

// Descriptors the automatic set is written with.
var (
	f32        = tensor.Descriptor{Format: tensor.F32, Layout: tensor.Contiguous}
	f32Strided = tensor.Descriptor{Format: tensor.F32, Layout: tensor.Strided}
)

// automatic is the library's automatic set: one entry per provider and
// operand descriptors, the portable kernels first.
func automatic() dispatch.Set {
	return dispatch.Set{
		Kernels: append([]dispatch.Kernel{
			{Name: "kernels/matmul.Multiply", Op: OpMatMul, Operands: []tensor.Descriptor{f32, f32, f32}, Priority: dispatch.Portable, Run: runMultiply},
			// A product of one column: the tiled GEMM's narrow members
			// take it until a mat-vec kernel of its own does.
			{Name: "kernels/matmul.Multiply", Op: OpMatVec, Operands: []tensor.Descriptor{f32, f32, f32}, Priority: dispatch.Portable, Run: runMultiplyVector},
		}, append(nnKernels(), quantKernels()...)...),
		Adapters: append([]dispatch.Adapter{
			{Name: "kernels/layout.Contiguous", From: f32Strided, To: f32, Kind: dispatch.PerCall, Run: runContiguous},
		}, quantAdapters()...),
	}
}

// runMultiply runs matmul on the tiled GEMM family.
func runMultiply(c *dispatch.Call, ts []tensor.Tensor) error {
	C, A, B, err := buffers3(ts)
	if err != nil {
		return err
	}
	_, err = matmul.Multiply(c.Tuner, c.Stream, C, A, B, matmul.Shape{M: ts[1].Dim(0), N: ts[2].Dim(1), K: ts[1].Dim(1)})
	return err
}

// runMultiplyVector runs matvec as the product of w and x as a column.
func runMultiplyVector(c *dispatch.Call, ts []tensor.Tensor) error {
	y, w, x, err := buffers3(ts)
	if err != nil {
		return err
	}
	_, err = matmul.Multiply(c.Tuner, c.Stream, y, w, x, matmul.Shape{M: ts[1].Dim(0), N: 1, K: ts[1].Dim(1)})
	return err
}

// runContiguous gathers a strided float32 operand into a contiguous one.
func runContiguous(c *dispatch.Call, dst, src tensor.Tensor) error {
	return layout.Contiguous(c.Stream, dst, src)
}

// buffers3 returns the float32 buffers of three operands.
func buffers3(ts []tensor.Tensor) (a, b, c *gpu.Buffer[float32], err error) {
	if a, err = tensor.Buffer[float32](ts[0]); err != nil {
		return
	}
	if b, err = tensor.Buffer[float32](ts[1]); err != nil {
		return
	}
	c, err = tensor.Buffer[float32](ts[2])
	return
}
