package native

// This file reads the strings a library returns.

import "unsafe"

// CString copies the NUL-terminated string at p, memory the library
// owns.
func CString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
