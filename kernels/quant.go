package kernels

import (
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// This file is package quant's part of the automatic set: its mat-vec
// kernels for each block format, and its dequantization as the adapter
// from a weight's blocks to float32, meant for load.

// quantFormats are the block formats of package quant.
var quantFormats = []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K}

func quantKernels() []dispatch.Kernel {
	var ks []dispatch.Kernel
	for _, f := range quantFormats {
		w := tensor.Descriptor{Format: f, Layout: tensor.BlockedRowMajor}
		ks = append(ks, dispatch.Kernel{Name: "kernels/quant.MatVec", Op: OpMatVec, Operands: []tensor.Descriptor{f32, w, f32}, Priority: dispatch.Portable, Run: runQuantMatVec})
	}
	return ks
}

func quantAdapters() []dispatch.Adapter {
	var as []dispatch.Adapter
	for _, f := range quantFormats {
		w := tensor.Descriptor{Format: f, Layout: tensor.BlockedRowMajor}
		as = append(as, dispatch.Adapter{Name: "kernels/quant.Dequantize", From: w, To: f32, Kind: dispatch.AtLoad, Run: runDequantize})
	}
	return as
}

// runQuantMatVec runs quant.MatVec of a weight in row-major blocks.
func runQuantMatVec(c *dispatch.Call, ts []tensor.Tensor) error {
	y, err := tensor.Buffer[float32](ts[0])
	if err != nil {
		return err
	}
	w, err := tensor.Buffer[uint32](ts[1])
	if err != nil {
		return err
	}
	x, err := tensor.Buffer[float32](ts[2])
	if err != nil {
		return err
	}
	return quant.MatVec(c.Stream, ts[1].Format(), y, w, x, ts[1].Dim(0), ts[1].Dim(1))
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
