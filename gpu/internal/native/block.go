package native

// This file checks a kernel's block against a device's limits before a
// driver compiles it.

import (
	"fmt"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// CheckBlock returns the threads of block b of kernel name, or an error,
// opened by prefix, where the device of limits l runs no such block.
func CheckBlock(prefix, name string, b xpu.Dim3, l driver.Limits) (uint64, error) {
	threads := uint64(b.X) * uint64(max(b.Y, 1)) * uint64(max(b.Z, 1))
	if b.X == 0 {
		return 0, fmt.Errorf("%s: kernel %s: a block of no threads", prefix, name)
	}
	if threads > uint64(l.MaxInvocationsPerBlock) || b.X > l.MaxBlockSize.X || b.Y > l.MaxBlockSize.Y || b.Z > l.MaxBlockSize.Z {
		return 0, fmt.Errorf("%s: kernel %s: a block of %d (%dx%dx%d) threads; the device runs %d, at most %dx%dx%d",
			prefix, name, threads, b.X, b.Y, b.Z, l.MaxInvocationsPerBlock, l.MaxBlockSize.X, l.MaxBlockSize.Y, l.MaxBlockSize.Z)
	}
	return threads, nil
}
