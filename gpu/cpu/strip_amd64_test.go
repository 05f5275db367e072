//go:build !noasm

package cpu

import "testing"

// TestDotStripPaths checks the pure-Go strip and, where the processor has
// AVX, the assembly strip, whichever cpuid selected.
func TestDotStripPaths(t *testing.T) {
	saved := useAVX
	defer func() { useAVX = saved }()
	useAVX = false
	t.Run("go", testStrips)
	if !saved {
		t.Skip("no AVX on this processor: the assembly strip is not run")
	}
	useAVX = true
	t.Run("avx", testStrips)
}
