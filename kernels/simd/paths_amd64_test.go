//go:build !noasm

package simd

// pathNames are the paths this processor has, pure Go first.
func pathNames() []string {
	names := []string{"go"}
	if useAVX2 {
		names = append(names, "avx2")
	}
	if useAVX512 {
		names = append(names, "avx512")
	}
	return names
}

// usePath sets the package's switches to the path named and returns
// what puts them back.
func usePath(name string) (restore func()) {
	avx2, avx512 := useAVX2, useAVX512
	useAVX2, useAVX512 = name != "go", name == "avx512"
	return func() { useAVX2, useAVX512 = avx2, avx512 }
}
