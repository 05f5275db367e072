package kernels

import (
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// This file is package quant's part of the automatic set: for each block
// format its mat-vec on row-major and on input-major blocks, its mat-mul
// of a batch on row-major blocks, and, as adapters meant for load, the
// packing from row-major blocks into input-major ones and the
// dequantization to float32.

// quantFormats are the block formats of package quant.
var quantFormats = []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K}

func quantKernels() []dispatch.Kernel {
	var ks []dispatch.Kernel
	for _, f := range quantFormats {
		w := tensor.Descriptor{Format: f, Layout: tensor.BlockedRowMajor}
		wi := tensor.Descriptor{Format: f, Layout: tensor.BlockedInputMajor}
		ks = append(ks,
			dispatch.Kernel{Name: "kernels/quant.MatVec", Op: OpMatVec, Operands: []tensor.Descriptor{f32, w, f32}, Priority: dispatch.Portable, Run: runQuantMatVec},
			dispatch.Kernel{Name: "kernels/quant.MatVecInputMajor", Op: OpMatVec, Operands: []tensor.Descriptor{f32, wi, f32}, Priority: dispatch.Portable, Run: runQuantMatVec},
			dispatch.Kernel{Name: "kernels/quant.MatMul", Op: OpMatMul, Operands: []tensor.Descriptor{f32, w, f32}, Priority: dispatch.Portable, Run: runQuantMatMul})
	}
	return ks
}

func quantAdapters() []dispatch.Adapter {
	var as []dispatch.Adapter
	for _, f := range quantFormats {
		w := tensor.Descriptor{Format: f, Layout: tensor.BlockedRowMajor}
		wi := tensor.Descriptor{Format: f, Layout: tensor.BlockedInputMajor}
		as = append(as,
			dispatch.Adapter{Name: "kernels/quant.Pack", From: w, To: wi, Kind: dispatch.AtLoad, Run: runPack},
			dispatch.Adapter{Name: "kernels/quant.Dequantize", From: w, To: f32, Kind: dispatch.AtLoad, Run: runDequantize})
	}
	return as
}

// weighted returns the buffers of a product by a block weight: the
// float32 output, the weight's words and the float32 input.
func weighted(ts []tensor.Tensor) (y *gpu.Buffer[float32], w *gpu.Buffer[uint32], x *gpu.Buffer[float32], err error) {
	if y, err = tensor.Buffer[float32](ts[0]); err != nil {
		return
	}
	if w, err = tensor.Buffer[uint32](ts[1]); err != nil {
		return
	}
	x, err = tensor.Buffer[float32](ts[2])
	return
}

// runQuantMatVec runs quant.MatVec or, for a weight in input-major
// blocks, quant.MatVecInputMajor.
func runQuantMatVec(c *dispatch.Call, ts []tensor.Tensor) error {
	y, w, x, err := weighted(ts)
	if err != nil {
		return err
	}
	if ts[1].Layout() == tensor.BlockedInputMajor {
		return quant.MatVecInputMajor(c.Stream, ts[1].Format(), y, w, x, ts[1].Dim(0), ts[1].Dim(1))
	}
	return quant.MatVec(c.Stream, ts[1].Format(), y, w, x, ts[1].Dim(0), ts[1].Dim(1))
}

// runQuantMatMul runs quant.MatMul: c (rows x batch) = a (rows x cols, in
// row-major blocks) · b (cols x batch).
func runQuantMatMul(c *dispatch.Call, ts []tensor.Tensor) error {
	y, w, x, err := weighted(ts)
	if err != nil {
		return err
	}
	return quant.MatMul(c.Stream, ts[1].Format(), y, w, x, ts[1].Dim(0), ts[1].Dim(1), ts[2].Dim(1))
}

// runPack packs src's row-major blocks into dst's input-major ones.
func runPack(c *dispatch.Call, dst, src tensor.Tensor) error {
	d, err := tensor.Buffer[uint32](dst)
	if err != nil {
		return err
	}
	w, err := tensor.Buffer[uint32](src)
	if err != nil {
		return err
	}
	return quant.Pack(c.Stream, src.Format(), d, w, src.Dim(0), src.Dim(1))
}

// runDequantize dequantizes src's blocks into dst.
func runDequantize(c *dispatch.Call, dst, src tensor.Tensor) error {
	d, err := tensor.Buffer[float32](dst)
	if err != nil {
		return err
	}
	w, err := tensor.Buffer[uint32](src)
	if err != nil {
		return err
	}
	return quant.Dequantize(c.Stream, src.Format(), d, w, src.Len())
}
