package reduce

// This file is the host side's state: a Reducer, the scratch it owns, the
// plan of a length's passes and the checks of the arguments.

import (
	"errors"
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/tune"
)

// MaxBlocks is the most blocks a pass launches, and so the most partials
// a second pass combines.
const MaxBlocks = 1024

// MaxLen is the longest input: indices are uint32, and a work-item's index
// steps by the block (256) past the end of its chunk without wrapping.
const MaxLen = 1<<32 - 256

// A Reducer launches the package's reductions and scans on one device. It
// owns the scratch of the passes (the partials of at most MaxBlocks
// blocks: some 16 KiB, whatever the length), made once by [New] so that
// a loop of calls allocates nothing; its methods record launches on the
// stream they are given and never sync. Launches of one Reducer share
// its scratch: record them on one stream (or on streams whose work does
// not overlap), as a stream runs its launches in order.
type Reducer struct {
	d        *gpu.Device
	tu       *tune.Tuner
	contests map[string]contest // by operation; nil without a tuner

	sums    *gpu.Buffer[float32] // the partial sums of a pass
	offsets *gpu.Buffer[float32] // a scan's exclusive scan of sums
	zero    *gpu.Buffer[float32] // the offset of a scan of one chunk
	keys    *gpu.Buffer[uint32]  // the partial keys of ArgMax, or sums of uint32
	indices *gpu.Buffer[uint32]  // their indices, or a uint32 scan's offsets
	key     *gpu.Buffer[uint32]  // ArgMax's final key, which no caller reads
	zeroU   *gpu.Buffer[uint32]  // the offset of a uint32 scan of one chunk
}

// New returns a Reducer for d whose entry points choose between the wave
// and the shared-memory form of each operation with tu, where d runs the
// wave form (tune.Tuner.Pays, asked [PaysName]); a nil tu always takes
// the shared form. With a tuner, New asks d once whether it runs each
// wave kernel and what code it runs for each kernel (a device that
// compiles at first use compiles them here).
func New(d *gpu.Device, tu *tune.Tuner) (*Reducer, error) {
	if d == nil {
		return nil, fmt.Errorf("reduce: New: a nil device: %w", gpu.ErrArgs)
	}
	r := &Reducer{d: d, tu: tu}
	if tu != nil {
		r.contests = contests(d)
	}
	var err error
	alloc := func(n int) *gpu.Buffer[float32] {
		b, e := gpu.Upload(d, make([]float32, n))
		err = errors.Join(err, e)
		return b
	}
	allocU := func(n int) *gpu.Buffer[uint32] {
		b, e := gpu.NewBuffer[uint32](d, n)
		err = errors.Join(err, e)
		return b
	}
	r.sums, r.offsets, r.zero = alloc(MaxBlocks), alloc(MaxBlocks), alloc(1)
	r.keys, r.indices, r.key, r.zeroU = allocU(MaxBlocks), allocU(MaxBlocks), allocU(1), allocU(1)
	if err != nil {
		r.Release()
		return nil, fmt.Errorf("reduce: New: scratch: %w", err)
	}
	return r, nil
}

// Release releases the scratch. The Reducer is unusable afterwards.
func (r *Reducer) Release() {
	for _, b := range []*gpu.Buffer[float32]{r.sums, r.offsets, r.zero} {
		if b != nil {
			b.Release()
		}
	}
	for _, b := range []*gpu.Buffer[uint32]{r.keys, r.indices, r.key, r.zeroU} {
		if b != nil {
			b.Release()
		}
	}
}

// plan returns the first pass over n elements: its blocks and the chunk
// of each, a whole number of tiles of the block, so that there are at
// most MaxBlocks chunks.
func plan(n int) (groups, chunk uint32) {
	tiles := (uint64(n) + block - 1) / block
	c := (tiles + MaxBlocks - 1) / MaxBlocks * block
	return uint32((uint64(n) + c - 1) / c), uint32(c)
}

// tiled returns n rounded up to a whole tile: the chunk of a last pass
// over n partials, in one block.
func tiled(n uint32) uint32 { return (n + block - 1) / block * block }

// buffer is one argument of an entry point as the checks see it.
type buffer struct {
	name    string
	dev     *gpu.Device
	len     int
	missing bool // a nil buffer
}

func f32(name string, b *gpu.Buffer[float32]) buffer {
	return buffer{name, b.Device(), b.Len(), b == nil}
}

func u32(name string, b *gpu.Buffer[uint32]) buffer {
	return buffer{name, b.Device(), b.Len(), b == nil}
}

// check returns an error naming the rule when the arguments of entry
// point op do not fit: a stream and buffers of r's device, an input x of
// 1 to MaxLen elements, and every other buffer at least need elements
// (need of a buffer, by name; 1 when not named).
func (r *Reducer) check(op string, s *gpu.Stream, x buffer, others []buffer, need map[string]int) error {
	if r == nil || r.sums == nil {
		return fmt.Errorf("reduce: %s: a Reducer not made by New: %w", op, gpu.ErrArgs)
	}
	if s == nil {
		return fmt.Errorf("reduce: %s: a nil stream: %w", op, gpu.ErrArgs)
	}
	if s.Device() != r.d {
		return fmt.Errorf("reduce: %s: the stream is of another device than the Reducer's: %w", op, gpu.ErrForeignBuffer)
	}
	for _, b := range append([]buffer{x}, others...) {
		switch {
		case b.missing:
			return fmt.Errorf("reduce: %s: %s is nil: %w", op, b.name, gpu.ErrArgs)
		case b.dev != r.d:
			return fmt.Errorf("reduce: %s: %s is a buffer of another device than the Reducer's: %w", op, b.name, gpu.ErrForeignBuffer)
		}
	}
	if x.len < 1 || uint64(x.len) > MaxLen {
		return fmt.Errorf("reduce: %s: %s holds %d elements, not 1 to %d: %w", op, x.name, x.len, uint64(MaxLen), gpu.ErrSize)
	}
	for _, b := range others {
		want, ok := need[b.name]
		if !ok {
			want = 1
		}
		if b.len < want {
			return fmt.Errorf("reduce: %s: %s holds %d elements, it needs %d: %w", op, b.name, b.len, want, gpu.ErrBufferLen)
		}
	}
	return nil
}
