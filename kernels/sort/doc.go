// Package sort is sorting of uint32 buffers on the device, written in the
// kernel language: a stable least-significant-digit radix sort of keys of
// any length, alone ([Sorter.Keys]) or with a uint32 value carried by each
// key ([Sorter.Pairs]), and a bitonic sort of short runs within one block
// ([SortSmall], [SortRuns]).
//
// The radix sort takes four passes of 8-bit digits, each from one buffer
// to the other of a pair (the caller's and a scratch buffer the [Sorter]
// owns), so that the sorted keys end in the caller's buffer. A pass cuts
// the keys into runs of at least 1024 keys, at most MaxItems of them, a
// work-item each, in blocks of 8 work-items, and launches three steps:
//
//   - Histogram: work-item w counts the digits of its run into hist[d*P+w],
//     digit-major, P the work-items of the pass, through a column of 256
//     counters of its own in shared memory;
//   - an exclusive scan of hist (kernels/reduce's ScanUint32): since the
//     counts are digit-major, offsets[d*P+w] is the number of keys of a
//     smaller digit, plus those of digit d in the runs before w, which is
//     where work-item w's first key of digit d goes;
//   - Scatter: work-item w loads its offsets into its column and walks
//     its run, writing each key to its digit's offset and stepping it.
//     Keys of one digit keep their order: the sort is stable.
//
// This is the shape of a radix sort on a processor's cores, each sorting
// a run into the others' gaps: no work-item reads another's counters, so
// there are no barriers, atomics or ranking within a block, and a pass
// reads the keys twice and writes them once. On the CPU the work-items of
// a block are the lanes of a vector, each reading its own run; on a GPU
// the work-items' reads are far apart and there are few of them, so a
// block-local ranking of tiles (wave ballots, or a local sort) would suit
// it better; that is a design of its own, left for now. A block's runs
// are whole but for the last block's, so its loops share a trip count,
// which the CPU runs as one loop rather than under an execution mask
// that each step narrows.
//
// The histogram's scan is reduce's rather than a kernel of this package:
// it is a scan of 256 counts a run of at least 1024 keys (128Ki counts
// at 16M keys, a hundred-and-twenty-eighth of them), that reduce already
// checks. It scans the pass's counts only, a view of the Sorter's
// histogram.
//
// The bitonic sort sorts each run of up to MaxSmall keys in one block's
// shared memory, padded with the greatest key, 0xffffffff, to a power of
// two; its grid has rows of at most 65535 blocks, so that any number of
// runs fits any device's grid. It is not stable, which keys alone cannot
// tell: Keys takes it for lengths up to MaxSmall, where one launch beats
// the radix sort's twenty.
//
// Layering: the kernels import only package xpu, the kernel vocabulary;
// xpu_gen.go, their generated code (xpu gen), imports xpu and the runtime
// (gpu, gpu/gpuimpl); the host entry points import gpu and
// kernels/reduce. The tests check every kernel on every device present
// against the reference runner, and the entry points against slices.Sort
// and slices.SortStableFunc.
package sort

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
