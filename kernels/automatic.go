package kernels

import (
	"slices"

	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/layout"
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
		Kernels: slices.Concat(denseKernels(), nnKernels(), quantKernels(), reduceKernels(), sortKernels(), simdKernels()),
		Adapters: append([]dispatch.Adapter{
			{Name: "kernels/layout.Contiguous", From: f32Strided, To: f32, Kind: dispatch.PerCall, Run: runContiguous},
		}, quantAdapters()...),
	}
}

// runContiguous gathers a strided float32 operand into a contiguous one.
func runContiguous(c *dispatch.Call, dst, src tensor.Tensor) error {
	return layout.Contiguous(c.Stream, dst, src)
}
