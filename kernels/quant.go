package kernels

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/tune"
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
// blocks, quant.MatVecInputMajorForm in the form the call's tuner
// measures faster on the device (inputMajorForm).
func runQuantMatVec(c *dispatch.Call, ts []tensor.Tensor) error {
	y, w, x, err := weighted(ts)
	if err != nil {
		return err
	}
	f, rows, cols := ts[1].Format(), ts[1].Dim(0), ts[1].Dim(1)
	if ts[1].Layout() != tensor.BlockedInputMajor {
		return quant.MatVec(c.Stream, f, y, w, x, rows, cols)
	}
	run := func(fm quant.Form) func() error {
		return func() error { return quant.MatVecInputMajorForm(c.Stream, fm, f, y, w, x, rows, cols) }
	}
	fm, err := inputMajorForm(c, f, rows, cols, run)
	if err != nil {
		return err
	}
	return run(fm)()
}

// MatVecFormPays is the question the input-major mat-vec of format f asks
// its tuner: whether quant's Whole form beats its Split one, per device,
// format and shape rounded up to powers of two ("rows=4096,cols=4096").
// The two differ by device kind, not by a fact a device reports: a GPU
// wants Split's eight work-items a row; a device that runs work-items as
// a CPU's SIMD lanes (lavapipe) runs Whole two to four times as fast,
// loading x once for its lanes. tune.Tuner.Force["pays/"+MatVecFormPays(f)] =
// "whole" (or "split") pins a form.
func MatVecFormPays(f tensor.Format) string { return "kernels/quant.matvec-whole/" + f.String() }

// inputMajorForm returns the form of the input-major mat-vec of f at
// rows x cols that c's tuner answers (formPays).
func inputMajorForm(c *dispatch.Call, f tensor.Format, rows, cols int, run func(quant.Form) func() error) (quant.Form, error) {
	d := c.Stream.Device()
	whole := tune.Variant{Name: quant.Whole.String(), Hash: tune.CodeHash(d, quant.Whole.Kernel(f)), Run: run(quant.Whole)}
	split := tune.Variant{Name: quant.Split.String(), Hash: tune.CodeHash(d, quant.Split.Kernel(f)), Run: run(quant.Split)}
	pays, err := formPays(c, MatVecFormPays(f), rows, cols, whole, split)
	if err != nil {
		return quant.Split, fmt.Errorf("kernels: the input-major mat-vec's form: %w", err)
	}
	if pays {
		return quant.Whole, nil
	}
	return quant.Split, nil
}

// formPays reports whether variant a of an operation beats b on c's
// device, as c's tuner (tune.Default() when nil) answers question for
// the bucket of rows x cols (each rounded up to a power of two): measured
// on the call's buffers the first time a device and bucket are asked.
func formPays(c *dispatch.Call, question string, rows, cols int, a, b tune.Variant) (bool, error) {
	tu := c.Tuner
	if tu == nil {
		tu = tune.Default()
	}
	key := tune.KeyOf(tune.Dim{Name: "rows", Size: tune.Pow2(rows)}, tune.Dim{Name: "cols", Size: tune.Pow2(cols)})
	pays, _, err := tu.Pays(c.Stream, question, key, a, b)
	return pays, err
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
