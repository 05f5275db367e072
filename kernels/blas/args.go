package blas

// This file holds the rules the entry points share: BLAS's rules on
// increments and vectors' extents, the kernels' uint32 and int32 bounds,
// and the grid a kernel steps over its elements by.

import (
	"fmt"
	"math"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// maxGroups bounds a grid's X: 65535, the least a WebGPU device offers;
// the kernels step over what one grid does not cover.
const maxGroups = 65535

// grid returns the blocks that cover n elements at per a block, at most
// maxGroups.
func grid(n int, per uint32) xpu.Dim3 {
	return xpu.Dim3{X: min(xpu.GroupsFor(uint32(n), per), maxGroups), Y: 1, Z: 1}
}

// increment returns an error naming the rule when inc, the argument
// name of entry, is no increment a kernel takes: BLAS's rule (not 0) and
// the kernels' (an int32).
func increment(entry, name string, inc int) error {
	if inc == 0 {
		return fmt.Errorf("blas: %s: %s is 0: %w", entry, name, gpu.ErrArgs)
	}
	if inc > math.MaxInt32 || inc < -math.MaxInt32 {
		return fmt.Errorf("blas: %s: %s = %d, past the kernels' int32 increments (|%s| at most 2^31-1): %w", entry, name, inc, name, gpu.ErrArgs)
	}
	return nil
}

// extent returns an error naming the rule when buf, the argument name of
// entry, holds fewer than the elements a stored matrix of rows x cols
// elements, rows ld apart, reaches: (rows-1)*ld+cols, a vector being cols
// 1 and ld its increment's magnitude. The extent must also lie within
// the kernels' uint32 indices. rows and cols are at least 1.
func extent(entry, name string, buf *gpu.Buffer[float32], rows, cols, ld int, rule string) error {
	need := uint64(rows-1)*uint64(ld) + uint64(cols)
	if need > math.MaxUint32 {
		return fmt.Errorf("blas: %s: %s reaches %s = %d elements, past the kernels' uint32 indices: %w", entry, name, rule, need, gpu.ErrArgs)
	}
	if uint64(buf.Len()) < need {
		return fmt.Errorf("blas: %s: %s holds %d elements, %s = %d needed: %w", entry, name, buf.Len(), rule, need, gpu.ErrBufferLen)
	}
	return nil
}

// vector is extent for a vector of n elements stored inc apart.
func vector(entry, name string, buf *gpu.Buffer[float32], n, inc int, incName string) error {
	ld := inc
	if ld < 0 {
		ld = -ld
	}
	return extent(entry, name, buf, n, 1, ld, fmt.Sprintf("(%d-1)*|%s|+1", n, incName))
}
