// Package sort is sorting of uint32 buffers on the device, written in the
// kernel language: a stable least-significant-digit radix sort of keys of
// any length, alone ([Sorter.Keys]) or with a uint32 value carried by each
// key ([Sorter.Pairs]), and a bitonic sort of short runs within one block
// ([SortSmall], [SortRuns]).
//
// The radix sort takes eight passes of four bits, each from one buffer to
// the other of a pair (the caller's and a scratch buffer the [Sorter]
// owns), so that the sorted keys end in the caller's buffer. A pass cuts
// the keys into at most MaxBlocks contiguous chunks, each a whole number
// of tiles of 8192 keys, and launches three steps:
//
//   - Histogram: block g counts the digits of its chunk into hist[d*G+g],
//     digit-major, G the blocks of the pass (each work-item into packed
//     16-bit counters of its own, which 16 work-items then sum);
//   - an exclusive scan of hist (kernels/reduce's ScanUint32): since the
//     counts are digit-major, offsets[d*G+g] is the number of keys of a
//     smaller digit, plus those of digit d in the chunks before g, which
//     is where block g's first key of digit d goes;
//   - Scatter: block g walks its chunk a tile at a time; in a tile
//     work-item l owns the 32 consecutive keys from l*32 and counts their
//     digits in packed 16-bit counters (two digits a word; a tile holds
//     8192 keys, so no count overflows its half), the block scans the
//     counters across work-items in shared memory, and each work-item then
//     writes its keys, in order, to the chunk's offset of the digit plus
//     the keys of that digit in the tiles before, in the work-items
//     before and in its own run before. Keys of one digit keep their
//     order: the sort is stable.
//
// The histogram's scan is reduce's rather than a kernel of this package:
// it is a scan of 16*MaxBlocks uint32s that reduce already checks, and it
// costs three small launches a pass, nothing beside the passes over the
// keys. It scans the whole histogram buffer: the counts past 16*G, left
// by a sort of more blocks, change only offsets past those a pass reads.
//
// The bitonic sort sorts each run of up to MaxSmall keys in one block's
// shared memory, padded with the greatest key, 0xffffffff, to a power of
// two. It is not stable, which keys alone cannot tell: Keys takes it for
// lengths up to MaxSmall, where one launch beats the radix sort's 40.
//
// Layering: the kernels import only package xpu, the kernel vocabulary;
// xpu_gen.go, their generated code (xpu gen), imports xpu and the runtime
// (gpu, gpu/gpuimpl); the host entry points import gpu and
// kernels/reduce. The tests check every kernel on every device present
// against the reference runner, and the entry points against slices.Sort
// and slices.SortStableFunc.
package sort

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
