package sort

// This file is the host side's state: a Sorter, the scratch it owns, the
// plan of a pass and the checks of the arguments.

import (
	"errors"
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/reduce"
)

// MaxItems is the most work-items a radix pass launches, each a run of
// keys: the histogram holds digits*MaxItems counts.
const MaxItems = 512

// minRun is the shortest run of keys a work-item takes: the histogram,
// digits counts a run, is then at most a quarter of the keys (but for a
// last block's empty runs).
const minRun = 1024

// MaxLen is the longest input: indices are uint32, and the start of a
// run past the end of the keys, at most a block of runs (of at most
// 2^23 keys) past it, does not wrap.
const MaxLen = 1<<32 - 1<<27

// A Sorter sorts uint32 buffers of up to the length it was made for on
// one device. It owns its scratch (a second buffer of keys and one of
// values, the histogram, its scan, and a reduce.Reducer for the scan),
// made once by [New] so that a loop of calls allocates nothing; its
// methods record launches on the stream they are given and never sync.
// Launches of one Sorter share its scratch: record them on one stream
// (or on streams whose work does not overlap).
type Sorter struct {
	d       *gpu.Device
	maxN    int
	keys    *gpu.Buffer[uint32] // the other buffer of a pass's pair
	values  *gpu.Buffer[uint32] // the values' other buffer
	hist    *gpu.Buffer[uint32] // a pass's digit counts, digit-major
	offsets *gpu.Buffer[uint32] // their exclusive scan
	scan    *reduce.Reducer
}

// New returns a Sorter for buffers of 1 to maxN elements on d (maxN at
// most MaxLen). Its scratch takes 8*maxN bytes, and the histogram and its
// scan at most 2*maxN bytes (1 MiB) more.
func New(d *gpu.Device, maxN int) (*Sorter, error) {
	if d == nil {
		return nil, fmt.Errorf("sort: New: a nil device: %w", gpu.ErrArgs)
	}
	if maxN < 1 || uint64(maxN) > MaxLen {
		return nil, fmt.Errorf("sort: New: maxN is %d, not 1 to %d: %w", maxN, uint64(MaxLen), gpu.ErrSize)
	}
	s := &Sorter{d: d, maxN: maxN}
	var err error
	alloc := func(n int) *gpu.Buffer[uint32] {
		b, e := gpu.NewBuffer[uint32](d, n)
		err = errors.Join(err, e)
		return b
	}
	s.keys, s.values = alloc(maxN), alloc(maxN)
	_, items, _ := plan(maxN)
	s.hist, s.offsets = alloc(int(digits*items)), alloc(int(digits*items))
	if err == nil {
		s.scan, err = reduce.New(d, nil)
	}
	if err != nil {
		s.Release()
		return nil, fmt.Errorf("sort: New: scratch: %w", err)
	}
	return s, nil
}

// MaxN returns the most keys the Sorter sorts.
func (s *Sorter) MaxN() int { return s.maxN }

// Release releases the scratch. The Sorter is unusable afterwards.
func (s *Sorter) Release() {
	for _, b := range []*gpu.Buffer[uint32]{s.keys, s.values, s.hist, s.offsets} {
		if b != nil {
			b.Release()
		}
	}
	if s.scan != nil {
		s.scan.Release()
	}
}

// plan returns a pass over n keys: its blocks, their work-items (a
// whole number of blocks, at most MaxItems) and the run of keys each
// takes, at least minRun. A Sorter's histogram holds the counts of the
// plan of its maxN, which no shorter input's exceeds.
func plan(n int) (groups, items, run uint32) {
	r := max(minRun, (uint64(n)+MaxItems-1)/MaxItems)
	g := ((uint64(n)+r-1)/r + block - 1) / block
	return uint32(g), uint32(g * block), uint32(r)
}

// check returns an error naming the rule when the arguments of entry
// point op do not fit: a Sorter made by New, a stream and buffers of its
// device, and keys of 1 to the Sorter's maxN elements.
func (s *Sorter) check(op string, st *gpu.Stream, keys *gpu.Buffer[uint32]) error {
	if s == nil || s.hist == nil {
		return fmt.Errorf("sort: %s: a Sorter not made by New: %w", op, gpu.ErrArgs)
	}
	if st == nil {
		return fmt.Errorf("sort: %s: a nil stream: %w", op, gpu.ErrArgs)
	}
	if st.Device() != s.d {
		return fmt.Errorf("sort: %s: the stream is of another device than the Sorter's: %w", op, gpu.ErrForeignBuffer)
	}
	if err := own(op, "keys", keys, s.d); err != nil {
		return err
	}
	if n := keys.Len(); n < 1 || n > s.maxN {
		return fmt.Errorf("sort: %s: keys holds %d elements, not 1 to the Sorter's maxN %d: %w", op, n, s.maxN, gpu.ErrSize)
	}
	return nil
}

// own returns an error when buffer b, named name, is nil or of another
// device than d.
func own(op, name string, b *gpu.Buffer[uint32], d *gpu.Device) error {
	switch {
	case b == nil:
		return fmt.Errorf("sort: %s: %s is nil: %w", op, name, gpu.ErrArgs)
	case b.Device() != d:
		return fmt.Errorf("sort: %s: %s is a buffer of another device: %w", op, name, gpu.ErrForeignBuffer)
	}
	return nil
}
