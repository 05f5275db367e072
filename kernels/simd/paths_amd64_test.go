//go:build !noasm

package simd

import "testing"

// forEachPath runs f once per path the processor has, pure Go first,
// with the package's switches set to it.
func forEachPath(t *testing.T, f func(t *testing.T)) {
	avx2, avx512 := useAVX2, useAVX512
	defer func() { useAVX2, useAVX512 = avx2, avx512 }()
	paths := []struct {
		name         string
		avx2, avx512 bool
		have         bool
	}{
		{"go", false, false, true},
		{"avx2", true, false, avx2},
		{"avx512", true, true, avx512},
	}
	for _, p := range paths {
		if !p.have {
			t.Logf("%s: not supported by this processor", p.name)
			continue
		}
		useAVX2, useAVX512 = p.avx2, p.avx512
		t.Run(p.name, f)
	}
}
