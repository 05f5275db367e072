package cpu

import "syscall"

// physicalMemory returns the bytes of physical memory, or 0 when the
// system does not say.
func physicalMemory() uint64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
}
