// Package reduce is reductions and scans of float32 buffers of any
// length, written in the kernel language: Sum, Dot (the sum of x[i]*y[i]),
// Max and ArgMax, and inclusive and exclusive prefix sums (Scan); and the
// sum and scans of uint32 buffers (SumUint32, ScanUint32), which wrap
// modulo 2^32 and so are exact.
//
// Every operation runs in passes over one block size (256 work-items) and
// at most MaxBlocks blocks. The input is cut into at most MaxBlocks
// contiguous chunks, each a whole number of 256-element tiles; block g
// reduces chunk g, a tile at a time (a coalesced load per work-item and
// tile, then a running value per work-item), into one partial, and
// combines its work-items' values in the block. A second pass, one block,
// combines the partials the same way (its chunk covers them all). An input
// of one chunk takes one pass. Scan is reduce-then-scan: the partial sums
// of the chunks, an exclusive scan of them in one block, then every block
// scans its chunk tile by tile from its offset. Since the partials never
// number more than MaxBlocks, no operation recurses and the scratch a
// [Reducer] owns does not grow with the length.
//
// Each kernel has two forms of the combine within a block: a tree in
// shared memory (the Shared kernels) and wave verbs (the Wave kernels,
// width-agnostic, correct at every wave width from 4 to 64 lanes). A
// Reducer launches the wave form where a tuner measures that it pays
// (tune.Tuner.Pays) and the device runs it; the shared form otherwise.
//
// Semantics:
//
//   - Max and ArgMax order floats totally: -Inf < ... < -0 < +0 < ... <
//     +Inf < NaN, every NaN equal. So a NaN anywhere makes Max NaN (the
//     quiet NaN 0x7fc00000) and ArgMax the index of the first NaN, and
//     Max of -0 and +0 is +0. ArgMax returns the lowest index among equal
//     maxima. Both are exact: the order is compared on integer keys, so
//     the result does not depend on the order of the combine.
//   - Sum, Dot and Scan add in a tree order (a chain per work-item over
//     its tiles, then a tree or a wave's order in the block, then the
//     same over the partials), not the sequential one. The order a wave
//     sum or scan adds its lanes in is the device's. Each term passes
//     through at most h additions, h the tiles of a chunk (n/262144
//     rounded up) plus 255 in the block, plus 4 + 255 in the last pass,
//     whatever order the combines take; so a sum is within about
//     h*2^-24*sum|terms| of the exact one, the bound of any summation tree
//     of height h (a sequential sum's h is n-1). Dot adds one rounding per
//     product, unless the device fuses it. A scan's element adds the
//     chunks' offsets: at most twice that height.
//
// Layering: the kernels import only package xpu, the kernel vocabulary;
// xpu_gen.go, their generated code (xpu gen), imports xpu and the runtime
// (gpu, gpu/gpuimpl); the host entry points import gpu and tune. The
// tests check every kernel on every device present against the reference
// runner, and the entry points against a plain-Go float64 sum.
package reduce

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
