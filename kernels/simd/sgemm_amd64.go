//go:build !noasm

package simd

// sgemmTile runs Sgemm's micro-kernel on the path the processor has:
// the AVX-512 one where AVX-512F is (useAVX512), a 6x32 tile in 12
// registers of 16 lanes; the AVX2 one wherever AVX2 and FMA are
// (useAVX2, whose F16C every processor with them has), which takes the
// tile's two halves of 16 columns in turn, each in 12 registers of 8
// lanes; else pure Go. a and b are the packed panels of depth kc, c the
// tile's first row, its rows ldc apart.
func sgemmTile(kc int, a, b, c []float32, ldc int, alpha, beta float32) {
	const half = sgemmNR / 2
	switch {
	case useAVX512:
		_, _, _ = a[sgemmMR*kc-1], b[sgemmNR*kc-1], c[(sgemmMR-1)*ldc+sgemmNR-1]
		sgemmTileAVX512(kc, &a[0], &b[0], &c[0], ldc, alpha, beta)
	case useAVX2:
		_, _, _ = a[sgemmMR*kc-1], b[sgemmNR*kc-1], c[(sgemmMR-1)*ldc+sgemmNR-1]
		sgemmTileAVX2(kc, &a[0], &b[0], &c[0], ldc, alpha, beta)
		sgemmTileAVX2(kc, &a[0], &b[half], &c[half], ldc, alpha, beta)
	default:
		sgemmTileGo(kc, a, b, c, ldc, alpha, beta)
	}
}

// sgemmTileAVX2 is sgemmTileGo for kc >= 1 over half of a tile, 16 of
// its 32 columns, in 12 accumulators of 8 lanes, Y0 to Y11, two a row of
// the tile: per step p of k, the 16 floats of the half of B's row p (the
// panel's rows 32 floats apart) are loaded into two registers and each
// of the 6 of A's column p broadcast and multiplied into its row's two
// with fused multiply-adds. The half tile is then alpha*acc, plus beta*c
// by one more fused multiply-add where beta is not 0.
//
//go:noescape
func sgemmTileAVX2(kc int, a, b, c *float32, ldc int, alpha, beta float32)

// sgemmTileAVX512 is sgemmTileGo for kc >= 1 in 12 accumulators of 16
// lanes, Z0 to Z11, two a row of the 6x32 tile, as sgemmTileAVX2 takes
// its half.
//
//go:noescape
func sgemmTileAVX512(kc int, a, b, c *float32, ldc int, alpha, beta float32)
