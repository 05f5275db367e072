//go:build noasm || !amd64

package simd

// dotQ8_0, dotQ4_0 and dotQ4_K are the pure-Go paths where no assembly
// is built.
func dotQ8_0(blocks []byte, x []float32) float32 { return dotQ8_0Go(blocks, x) }
func dotQ4_0(blocks []byte, x []float32) float32 { return dotQ4_0Go(blocks, x) }
func dotQ4_K(blocks []byte, x []float32) float32 { return dotQ4_KGo(blocks, x) }

// Path names the path the dot products take: "go", the only one here.
func Path() string { return "go" }
