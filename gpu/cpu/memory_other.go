//go:build !linux

package cpu

// physicalMemory returns 0 (unknown) where the CPU backend has no way to
// read the system's memory: the device then bounds buffers by
// unknownMemoryBound.
func physicalMemory() uint64 { return 0 }
