//go:build !noasm

package simd

// sgemmTile runs Sgemm's micro-kernel on the path the processor has:
// the AVX2 one wherever AVX2 and FMA are (useAVX2, whose F16C every
// processor with them has; there is no AVX-512 one, so the avx512 path
// runs it too), else pure Go. a and b are the packed panels of depth kc,
// c the tile's first row, its rows ldc apart.
func sgemmTile(kc int, a, b, c []float32, ldc int, alpha, beta float32) {
	if useAVX2 {
		_, _, _ = a[sgemmMR*kc-1], b[sgemmNR*kc-1], c[(sgemmMR-1)*ldc+sgemmNR-1]
		sgemmTileAVX2(kc, &a[0], &b[0], &c[0], ldc, alpha, beta)
		return
	}
	sgemmTileGo(kc, a, b, c, ldc, alpha, beta)
}

// sgemmTileAVX2 is sgemmTileGo for kc >= 1 in 12 accumulators of 8
// lanes, Y0 to Y11, two a row of the tile: per step p of k, the 16
// floats of B's row p are loaded into two registers and each of the 6 of
// A's column p broadcast and multiplied into its row's two with fused
// multiply-adds. The tile is then alpha*acc, plus beta*c by one more
// fused multiply-add where beta is not 0.
//
//go:noescape
func sgemmTileAVX2(kc int, a, b, c *float32, ldc int, alpha, beta float32)
