package kernels

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/blas"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/kernels/tensor"
	gonum "gonum.org/v1/gonum/blas"
)

// This file is the dense products' part of the automatic set:
// matmul.Sgemm for matmul and blas.Sgemv for a float32 matvec, on
// operands contiguous or strided as BLAS stores matrices (its rows, or
// for an input its columns, contiguous, a leading dimension apart) and
// vectors (an increment apart).

// denseKernels registers Sgemm and Sgemv for every combination of
// contiguous and strided operands; Accept narrows strided to what BLAS
// stores.
func denseKernels() []dispatch.Kernel {
	var ks []dispatch.Kernel
	for _, ds := range blasOperands() {
		ks = append(ks,
			dispatch.Kernel{Name: "kernels/matmul.Sgemm", Op: OpMatMul, Operands: ds, Priority: dispatch.Portable, Accept: acceptGemm, Run: runSgemm},
			dispatch.Kernel{Name: "kernels/blas.Sgemv", Op: OpMatVec, Operands: ds, Priority: dispatch.Portable, Accept: acceptGemv, Run: runSgemv})
	}
	return ks
}

// blasOperands are every combination of contiguous and strided float32
// operands of a product, output first: the descriptors a BLAS-shaped
// kernel registers under, its Accept narrowing strided to what BLAS
// stores.
func blasOperands() [][]tensor.Descriptor {
	var dss [][]tensor.Descriptor
	for _, c := range []tensor.Descriptor{f32, f32Strided} {
		for _, a := range []tensor.Descriptor{f32, f32Strided} {
			for _, b := range []tensor.Descriptor{f32, f32Strided} {
				dss = append(dss, []tensor.Descriptor{c, a, b})
			}
		}
	}
	return dss
}

// stored describes a matrix as BLAS takes it: transposed or not, and its
// leading dimension.
type stored struct {
	trans bool
	ld    int
}

// blasMatrix returns how BLAS stores the matrix m: its rows contiguous
// (not transposed, ld its row stride), or, when an input may be
// transposed, its columns (transposed, ld its column stride).
func blasMatrix(name string, m tensor.Tensor, transposable bool) (stored, error) {
	st := m.Strides()
	switch {
	case st[1] == 1 && st[0] >= max(1, m.Dim(1)):
		return stored{ld: st[0]}, nil
	case transposable && st[0] == 1 && st[1] >= max(1, m.Dim(0)):
		return stored{trans: true, ld: st[1]}, nil
	}
	what := "its rows"
	if transposable {
		what += " or its columns"
	}
	return stored{}, fmt.Errorf("%s %s: neither %s lie contiguous, a leading dimension apart", name, m, what)
}

func acceptGemm(_ *gpu.Device, ts []tensor.Tensor, _ any) error {
	for i, name := range []string{"c", "a", "b"} {
		if _, err := blasMatrix(name, ts[i], i > 0); err != nil {
			return err
		}
	}
	return nil
}

func acceptGemv(_ *gpu.Device, ts []tensor.Tensor, _ any) error {
	_, err := blasMatrix("w", ts[1], true)
	return err
}

func trans(t bool) gonum.Transpose {
	if t {
		return gonum.Trans
	}
	return gonum.NoTrans
}

// product is c = a·b as BLAS takes it: the three matrices as stored and
// the sizes m, n, k, for operands acceptGemm has taken.
type product struct {
	c, a, b stored
	m, n, k int
}

func blasProduct(ts []tensor.Tensor) product {
	sc, _ := blasMatrix("c", ts[0], false)
	sa, _ := blasMatrix("a", ts[1], true)
	sb, _ := blasMatrix("b", ts[2], true)
	return product{c: sc, a: sa, b: sb, m: ts[1].Dim(0), n: ts[2].Dim(1), k: ts[1].Dim(1)}
}

// runSgemm runs c = a·b as matmul.Sgemm.
func runSgemm(c *dispatch.Call, ts []tensor.Tensor) error {
	bs, err := f32s(ts)
	if err != nil {
		return err
	}
	p := blasProduct(ts)
	return matmul.Sgemm(c.Tuner, c.Stream, trans(p.a.trans), trans(p.b.trans), p.m, p.n, p.k, 1, bs[1], p.a.ld, bs[2], p.b.ld, 0, bs[0], p.c.ld)
}

// runSgemv runs y = w·x as blas.Sgemv; a transposed w is its stored
// matrix's transpose.
func runSgemv(c *dispatch.Call, ts []tensor.Tensor) error {
	bs, err := f32s(ts)
	if err != nil {
		return err
	}
	sw, _ := blasMatrix("w", ts[1], true)
	m, n := ts[1].Dim(0), ts[1].Dim(1)
	if sw.trans {
		m, n = n, m // the stored matrix is n x m
	}
	return blas.Sgemv(c.Stream, trans(sw.trans), m, n, 1, bs[1], sw.ld, bs[2], ts[2].Strides()[0], 0, bs[0], ts[0].Strides()[0])
}
