//go:build noasm || !amd64

package simd

// sgemmTile is the pure-Go micro-kernel where no assembly is built.
func sgemmTile(kc int, a, b, c []float32, ldc int, alpha, beta float32) {
	sgemmTileGo(kc, a, b, c, ldc, alpha, beta)
}
