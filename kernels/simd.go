package kernels

import (
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/simd"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/schema"
)

// This file is package simd's part of the automatic set: on the CPU
// backend, whose buffers are host memory, the quantized mat-vecs of
// row-major Q8_0, Q4_0 and Q4_K blocks in Go assembly (AVX-512 or AVX2, as
// cpuid finds; pure Go elsewhere), and Sgemm (AVX2 with FMA, else pure
// Go) for matmul on the operands kernels/matmul.Sgemm takes, and the
// radix sorts of uint32 keys and pairs, above the portable kernels.

func simdKernels() []dispatch.Kernel {
	k := func(name string, f tensor.Format) dispatch.Kernel {
		w := tensor.Descriptor{Format: f, Layout: tensor.BlockedRowMajor}
		return dispatch.Kernel{Name: "kernels/simd." + name, Op: OpMatVec, Operands: []tensor.Descriptor{f32, w, f32},
			Backends: []schema.Backend{schema.BackendCPU}, Priority: dispatch.SIMD, Run: runSIMDMatVec}
	}
	ks := []dispatch.Kernel{k("MatVecQ8_0", tensor.Q8_0), k("MatVecQ4_0", tensor.Q4_0), k("MatVecQ4_K", tensor.Q4_K)}
	for _, ds := range blasOperands() {
		ks = append(ks, dispatch.Kernel{Name: "kernels/simd.Sgemm", Op: OpMatMul, Operands: ds,
			Backends: []schema.Backend{schema.BackendCPU}, Priority: dispatch.SIMD, Accept: acceptGemm, Run: runSIMDSgemm})
	}
	u32 := tensor.Descriptor{Format: tensor.U32, Layout: tensor.Contiguous}
	ks = append(ks,
		dispatch.Kernel{Name: "kernels/simd.SortUint32", Op: OpSort, Operands: []tensor.Descriptor{u32},
			Backends: []schema.Backend{schema.BackendCPU}, Priority: dispatch.SIMD, Run: runSIMDSort},
		dispatch.Kernel{Name: "kernels/simd.SortPairsUint32", Op: OpSortPairs, Operands: []tensor.Descriptor{u32, u32},
			Backends: []schema.Backend{schema.BackendCPU}, Priority: dispatch.SIMD, Run: runSIMDSort})
	return ks
}

// sortScratch is a stream's scratch for the host sorts, kept between
// its calls: a sort of 16M keys would otherwise allocate, and fault in,
// 64 MiB a call. Calls on one stream run in order, so they share it.
type sortScratch struct{ keys, values []uint32 }

var sortScratches = perStream[*sortScratch]{release: func(*sortScratch) {}}

// runSIMDSort sorts the keys, and the values with them when the op is
// sortpairs, on the host, in stream order, over the CPU device's
// buffers.
func runSIMDSort(c *dispatch.Call, ts []tensor.Tensor) error {
	bufs := make([]gpu.HostBuffer, len(ts))
	for i, t := range ts {
		b, err := flatOf[uint32](t)
		if err != nil {
			return err
		}
		bufs[i] = b
	}
	n, pairs := ts[0].Len(), len(ts) == 2
	sc, err := sortScratches.get(c.Stream, nil, func(sc *sortScratch) bool {
		return len(sc.keys) >= n && (!pairs || len(sc.values) >= n)
	}, func() (*sortScratch, error) {
		sc := &sortScratch{keys: make([]uint32, n)}
		if pairs {
			sc.values = make([]uint32, n)
		}
		return sc, nil
	})
	if err != nil {
		return err
	}
	return c.Stream.RunHost(func(mem [][]byte) error {
		keys := gpu.HostSlice[uint32](mem[0])
		if !pairs {
			simd.SortUint32(keys, sc.keys, 0)
			return nil
		}
		return simd.SortPairsUint32(keys, gpu.HostSlice[uint32](mem[1]), sc.keys, sc.values, 0)
	}, bufs...)
}

// runSIMDSgemm runs c = a·b as simd.Sgemm on the host, in stream order,
// over the CPU device's buffers.
func runSIMDSgemm(c *dispatch.Call, ts []tensor.Tensor) error {
	bs, err := f32s(ts)
	if err != nil {
		return err
	}
	p := blasProduct(ts)
	return c.Stream.RunHost(func(mem [][]byte) error {
		return simd.Sgemm(trans(p.a.trans), trans(p.b.trans), p.m, p.n, p.k, 1, gpu.HostSlice[float32](mem[1]), p.a.ld,
			gpu.HostSlice[float32](mem[2]), p.b.ld, 0, gpu.HostSlice[float32](mem[0]), p.c.ld)
	}, bs[0], bs[1], bs[2])
}

// runSIMDMatVec runs simd's mat-vec of the weight's format on the host,
// in stream order, over the CPU device's buffers.
func runSIMDMatVec(c *dispatch.Call, ts []tensor.Tensor) error {
	y, w, x, err := weighted(ts)
	if err != nil {
		return err
	}
	rows, cols := ts[1].Dim(0), ts[1].Dim(1)
	matVec := simd.MatVecQ8_0
	switch ts[1].Format() {
	case tensor.Q4_0:
		matVec = simd.MatVecQ4_0
	case tensor.Q4_K:
		matVec = simd.MatVecQ4_K
	}
	return c.Stream.RunHost(func(mem [][]byte) error {
		return matVec(gpu.HostSlice[float32](mem[0]), mem[1], gpu.HostSlice[float32](mem[2]), rows, cols)
	}, y, w, x)
}
