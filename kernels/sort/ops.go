package sort

// This file is the entry points: each checks its arguments, then records
// its launches on the stream (see the package doc).

import (
	"fmt"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// passes is the number of radix passes: even, so that the keys end in the
// caller's buffer.
const passes = 32 / bits

// Keys records on s the launches that sort keys (1 to the Sorter's maxN
// elements) in place, ascending. It does not sync.
func (so *Sorter) Keys(s *gpu.Stream, keys *gpu.Buffer[uint32]) error {
	if err := so.check("Keys", s, keys); err != nil {
		return err
	}
	n := keys.Len()
	if n <= MaxSmall {
		return LaunchBitonic(s, xpu.Dim3{X: 1}, keys, uint32(n), uint32(n))
	}
	return so.radix(s, keys, nil)
}

// Pairs records on s the launches that sort keys (1 to the Sorter's maxN
// elements) in place, ascending and stably, and values (as many
// elements) with them: the value at a key's index goes where the key
// goes, and keys that are equal keep their order. It does not sync.
func (so *Sorter) Pairs(s *gpu.Stream, keys, values *gpu.Buffer[uint32]) error {
	if err := so.check("Pairs", s, keys); err != nil {
		return err
	}
	if err := own("Pairs", "values", values, so.d); err != nil {
		return err
	}
	if keys == values {
		return fmt.Errorf("sort: Pairs: keys and values are one buffer; they must be distinct: %w", gpu.ErrArgs)
	}
	if keys.Len() != values.Len() {
		return fmt.Errorf("sort: Pairs: keys holds %d elements and values %d: they must be of one length: %w", keys.Len(), values.Len(), gpu.ErrSize)
	}
	return so.radix(s, keys, values)
}

// radix records the passes of the radix sort of keys, and of values with
// them when values is not nil.
func (so *Sorter) radix(s *gpu.Stream, keys, values *gpu.Buffer[uint32]) error {
	n := keys.Len()
	g, items, run := plan(n)
	grid := xpu.Dim3{X: g}
	// The pass's counts only: a longer input's plan, the Sorter's, has
	// more.
	hist, err := so.hist.Slice(0, int(digits*items))
	if err != nil {
		return err
	}
	offsets, err := so.offsets.Slice(0, int(digits*items))
	if err != nil {
		return err
	}
	from, to := keys, so.keys
	vfrom, vto := values, so.values
	for p := range uint32(passes) {
		shift := p * bits
		if err := LaunchHistogram(s, grid, hist, from, uint32(n), run, shift); err != nil {
			return err
		}
		if err := so.scan.ScanUint32(s, offsets, hist, true); err != nil {
			return err
		}
		if values == nil {
			err = LaunchScatterKeys(s, grid, to, from, offsets, uint32(n), run, shift)
		} else {
			err = LaunchScatterPairs(s, grid, to, vto, from, vfrom, offsets, uint32(n), run, shift)
			vfrom, vto = vto, vfrom
		}
		if err != nil {
			return err
		}
		from, to = to, from
	}
	return nil
}

// SortSmall records on s the launch that sorts keys (1 to MaxSmall
// elements) in place, ascending, in one block. It does not sync.
func SortSmall(s *gpu.Stream, keys *gpu.Buffer[uint32]) error {
	if keys != nil && keys.Len() > MaxSmall {
		return fmt.Errorf("sort: SortSmall: keys holds %d elements, more than MaxSmall (%d): %w", keys.Len(), MaxSmall, gpu.ErrSize)
	}
	return runs("SortSmall", s, keys, keys.Len())
}

// SortRuns records on s the launch that sorts, in place, each run of
// length keys of keys (the last one shorter when length does not divide
// the buffer's length), length 1 to MaxSmall: a block per run, on a grid
// of rows of at most 65535 blocks (WebGPU's least limit on an axis). It
// does not sync.
func SortRuns(s *gpu.Stream, keys *gpu.Buffer[uint32], length int) error {
	if length < 1 || length > MaxSmall {
		return fmt.Errorf("sort: SortRuns: a run of %d keys, not 1 to MaxSmall (%d): %w", length, MaxSmall, gpu.ErrSize)
	}
	return runs("SortRuns", s, keys, length)
}

// runs checks the arguments of SortSmall and SortRuns and launches the
// bitonic sort of keys in runs of length.
func runs(op string, s *gpu.Stream, keys *gpu.Buffer[uint32], length int) error {
	if s == nil {
		return fmt.Errorf("sort: %s: a nil stream: %w", op, gpu.ErrArgs)
	}
	if err := own(op, "keys", keys, s.Device()); err != nil {
		return err
	}
	n := keys.Len()
	if n < 1 || uint64(n) > MaxLen {
		return fmt.Errorf("sort: %s: keys holds %d elements, not 1 to %d: %w", op, n, uint64(MaxLen), gpu.ErrSize)
	}
	return LaunchBitonic(s, runGrid((n+length-1)/length), keys, uint32(n), uint32(length))
}

// runGrid returns a grid of at least g blocks in rows of at most
// maxRow.
func runGrid(g int) xpu.Dim3 {
	x := min(g, maxRow)
	return xpu.Dim3{X: uint32(x), Y: uint32((g + x - 1) / x)}
}
