package kernels

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/sort"
	"github.com/goxpu/xpu/kernels/tensor"
)

// This file is package sort's part of the library: sorting a tensor's
// uint32 elements in place, in row-major order, alone or with values.

// The sorts' operations.
const (
	OpSort      = "sort"
	OpSortPairs = "sortpairs"
)

var sortOps = []dispatch.Op{
	{Name: OpSort, Operands: []string{"keys"}, Outputs: 1},
	{Name: OpSortPairs, Operands: []string{"keys", "values"}, Outputs: 2, Check: allShapes},
}

// Sort sorts keys' elements in place, ascending.
func Sort(s *gpu.Stream, sc *dispatch.Scope, keys tensor.Tensor) error {
	return Registry.Run(s, sc, OpSort, nil, keys)
}

// SortPairs sorts keys' elements in place, ascending and stably, each
// element of values, of keys' shape, moving with its key.
func SortPairs(s *gpu.Stream, sc *dispatch.Scope, keys, values tensor.Tensor) error {
	return Registry.Run(s, sc, OpSortPairs, nil, keys, values)
}

// sorters holds a Sorter for each stream, grown to the longest sort it
// has been asked for.
var sorters = perStream[*sort.Sorter]{release: (*sort.Sorter).Release}

// sorterFor returns a Sorter of c's stream that sorts n keys.
func sorterFor(c *dispatch.Call, n int) (*sort.Sorter, error) {
	if n > sort.MaxLen {
		return nil, fmt.Errorf("kernels: a sort of %d keys: at most %d: %w", n, sort.MaxLen, gpu.ErrSize)
	}
	return sorters.get(c.Stream, nil, func(so *sort.Sorter) bool { return so.MaxN() >= n }, func() (*sort.Sorter, error) {
		return sort.New(c.Stream.Device(), n)
	})
}

func sortKernels() []dispatch.Kernel {
	u32 := tensor.Descriptor{Format: tensor.U32, Layout: tensor.Contiguous}
	return []dispatch.Kernel{
		{Name: "kernels/sort.Sorter.Keys", Op: OpSort, Operands: []tensor.Descriptor{u32}, Priority: dispatch.Portable,
			Run: func(c *dispatch.Call, ts []tensor.Tensor) error {
				keys, err := flatOf[uint32](ts[0])
				if err != nil {
					return err
				}
				so, err := sorterFor(c, keys.Len())
				if err != nil {
					return err
				}
				return so.Keys(c.Stream, keys)
			}},
		{Name: "kernels/sort.Sorter.Pairs", Op: OpSortPairs, Operands: []tensor.Descriptor{u32, u32}, Priority: dispatch.Portable,
			Run: func(c *dispatch.Call, ts []tensor.Tensor) error {
				keys, err := flatOf[uint32](ts[0])
				if err != nil {
					return err
				}
				values, err := flatOf[uint32](ts[1])
				if err != nil {
					return err
				}
				so, err := sorterFor(c, keys.Len())
				if err != nil {
					return err
				}
				return so.Pairs(c.Stream, keys, values)
			}},
	}
}
