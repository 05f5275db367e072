package reduce

// This file is the entry points: each checks its arguments, then records
// its passes on the stream (see the package doc).

import (
	"fmt"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// one is the grid of a last pass.
var one = xpu.Dim3{X: 1}

// Sum records on s the launches that write to dst[0] the sum of x's
// elements (1 to MaxLen of them), in the package's tree order (see the
// package doc for its error bound). It does not sync.
func (r *Reducer) Sum(s *gpu.Stream, dst, x *gpu.Buffer[float32]) error {
	if err := r.check("Sum", s, f32("x", x), []buffer{f32("dst", dst)}, nil); err != nil {
		return err
	}
	n := x.Len()
	g, chunk := plan(n)
	return r.launch(s, "sum", n, func(f *form) error {
		if g == 1 {
			return f.sum(s, one, dst, x, uint32(n), chunk)
		}
		if err := f.sum(s, xpu.Dim3{X: g}, r.sums, x, uint32(n), chunk); err != nil {
			return err
		}
		return f.sum(s, one, dst, r.sums, g, tiled(g))
	})
}

// Dot records on s the launches that write to dst[0] the sum of
// x[i]*y[i] over x and y, of one length (1 to MaxLen), in Sum's order;
// a device may fuse each product into its addition. It does not sync.
func (r *Reducer) Dot(s *gpu.Stream, dst, x, y *gpu.Buffer[float32]) error {
	if err := r.check("Dot", s, f32("x", x), []buffer{f32("y", y), f32("dst", dst)}, map[string]int{"y": x.Len()}); err != nil {
		return err
	}
	if x.Len() != y.Len() {
		return fmt.Errorf("reduce: Dot: x holds %d elements and y %d: they must be of one length: %w", x.Len(), y.Len(), gpu.ErrSize)
	}
	n := x.Len()
	g, chunk := plan(n)
	return r.launch(s, "dot", n, func(f *form) error {
		if g == 1 {
			return f.dot(s, one, dst, x, y, uint32(n), chunk)
		}
		if err := f.dot(s, xpu.Dim3{X: g}, r.sums, x, y, uint32(n), chunk); err != nil {
			return err
		}
		return f.sum(s, one, dst, r.sums, g, tiled(g))
	})
}

// Max records on s the launches that write to dst[0] the greatest of x's
// elements (1 to MaxLen of them) in the order -Inf < -0 < +0 < +Inf <
// NaN: NaN (the quiet NaN 0x7fc00000) when any element is NaN. It is
// exact. It does not sync.
func (r *Reducer) Max(s *gpu.Stream, dst, x *gpu.Buffer[float32]) error {
	if err := r.check("Max", s, f32("x", x), []buffer{f32("dst", dst)}, nil); err != nil {
		return err
	}
	n := x.Len()
	g, chunk := plan(n)
	return r.launch(s, "max", n, func(f *form) error {
		if g == 1 {
			return f.max(s, one, dst, x, uint32(n), chunk)
		}
		if err := f.max(s, xpu.Dim3{X: g}, r.sums, x, uint32(n), chunk); err != nil {
			return err
		}
		return f.max(s, one, dst, r.sums, g, tiled(g))
	})
}

// ArgMax records on s the launches that write to dst[0] the index of the
// greatest of x's elements (1 to MaxLen of them), in Max's order, the
// lowest among equal ones: the first NaN's when x holds one. It does not
// sync.
func (r *Reducer) ArgMax(s *gpu.Stream, dst *gpu.Buffer[uint32], x *gpu.Buffer[float32]) error {
	if err := r.check("ArgMax", s, f32("x", x), []buffer{u32("dst", dst)}, nil); err != nil {
		return err
	}
	n := x.Len()
	g, chunk := plan(n)
	return r.launch(s, "argmax", n, func(f *form) error {
		if err := f.argMax(s, xpu.Dim3{X: g}, r.keys, r.indices, x, uint32(n), chunk); err != nil {
			return err
		}
		return f.argMaxPairs(s, one, r.key, dst, r.keys, r.indices, g, tiled(g))
	})
}

// Scan records on s the launches that write to dst the prefix sums of x
// (1 to MaxLen elements; dst at least as long): dst[i] = x[0] + ... +
// x[i], or with exclusive x[0] + ... + x[i-1] (dst[0] = 0). The sums are
// in a tree order (see the package doc). dst and x must be distinct
// buffers. It does not sync.
func (r *Reducer) Scan(s *gpu.Stream, dst, x *gpu.Buffer[float32], exclusive bool) error {
	if err := r.check("Scan", s, f32("x", x), []buffer{f32("dst", dst)}, map[string]int{"dst": x.Len()}); err != nil {
		return err
	}
	n := x.Len()
	var excl uint32
	if exclusive {
		excl = 1
	}
	g, chunk := plan(n)
	return r.launch(s, "scan", n, func(f *form) error {
		if g == 1 {
			return f.scan(s, one, dst, x, r.zero, uint32(n), chunk, excl)
		}
		if err := f.sum(s, xpu.Dim3{X: g}, r.sums, x, uint32(n), chunk); err != nil {
			return err
		}
		if err := f.scan(s, one, r.offsets, r.sums, r.zero, g, tiled(g), 1); err != nil {
			return err
		}
		return f.scan(s, xpu.Dim3{X: g}, dst, x, r.offsets, uint32(n), chunk, excl)
	})
}

// SumUint32 records on s the launches that write to dst[0] the sum of
// x's elements (1 to MaxLen of them) modulo 2^32: exact, in any order. It
// does not sync.
func (r *Reducer) SumUint32(s *gpu.Stream, dst, x *gpu.Buffer[uint32]) error {
	if err := r.check("SumUint32", s, u32("x", x), []buffer{u32("dst", dst)}, nil); err != nil {
		return err
	}
	n := x.Len()
	g, chunk := plan(n)
	return r.launch(s, "sum-uint32", n, func(f *form) error {
		if g == 1 {
			return f.sumU(s, one, dst, x, uint32(n), chunk)
		}
		if err := f.sumU(s, xpu.Dim3{X: g}, r.keys, x, uint32(n), chunk); err != nil {
			return err
		}
		return f.sumU(s, one, dst, r.keys, g, tiled(g))
	})
}

// ScanUint32 is Scan over uint32: prefix sums modulo 2^32, exact. It does
// not sync.
func (r *Reducer) ScanUint32(s *gpu.Stream, dst, x *gpu.Buffer[uint32], exclusive bool) error {
	if err := r.check("ScanUint32", s, u32("x", x), []buffer{u32("dst", dst)}, map[string]int{"dst": x.Len()}); err != nil {
		return err
	}
	n := x.Len()
	var excl uint32
	if exclusive {
		excl = 1
	}
	g, chunk := plan(n)
	return r.launch(s, "scan-uint32", n, func(f *form) error {
		if g == 1 {
			return f.scanU(s, one, dst, x, r.zeroU, uint32(n), chunk, excl)
		}
		if err := f.sumU(s, xpu.Dim3{X: g}, r.keys, x, uint32(n), chunk); err != nil {
			return err
		}
		if err := f.scanU(s, one, r.indices, r.keys, r.zeroU, g, tiled(g), 1); err != nil {
			return err
		}
		return f.scanU(s, xpu.Dim3{X: g}, dst, x, r.indices, uint32(n), chunk, excl)
	})
}
