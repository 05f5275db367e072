package cpubench

import "unsafe"

// unsafeBytes returns the memory of v as bytes.
func unsafeBytes(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}
