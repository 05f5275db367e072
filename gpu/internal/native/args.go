package native

// This file assembles a launch's kernel arguments as the PTX contract
// orders them (schema/ptx.go) and the HSACO contract takes them over
// (schema/hsaco.go): all u64; per buffer its device address and its
// length in bytes, then the uniform block's address, then the fault
// word's.

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
)

// Base returns the device address and size of a buffer of the driver's
// own type, or an error where buf is none (another driver's, released).
type Base func(buf driver.Buffer) (ptr uint64, size int, err error)

// Bound returns the device address and length a launch binds for buf: a
// buffer of the driver (base), or a view's window of one.
func Bound(buf driver.Buffer, base Base) (ptr uint64, bytes int, err error) {
	v, ok := buf.(*driver.View)
	if !ok {
		return base(buf)
	}
	ptr, size, err := Bound(v.Buffer, base)
	if err != nil {
		return 0, 0, err
	}
	if v.Offset < 0 || v.Bytes < 0 || v.Offset > size || v.Bytes > size-v.Offset {
		return 0, 0, fmt.Errorf("a view of %d bytes at offset %d of a %d-byte buffer", v.Bytes, v.Offset, size)
	}
	return ptr + uint64(v.Offset), v.Bytes, nil
}

// Launch is what Args needs of a launch: its kernel's buffer parameters,
// whether its artifact sets the fault word, and the uniform block's
// address (0: the kernel has no scalars).
type Launch struct {
	Buffers  int
	Fault    bool
	Uniforms uint64
}

// Args appends to vals[:0] the argument values of a launch binding bufs
// (the kernel's buffers, then the fault word where l.Fault), each
// resolved by base. A buffer it cannot bind is an error naming its
// place.
func Args(vals []uint64, l Launch, bufs []driver.Buffer, base Base) ([]uint64, error) {
	vals = vals[:0]
	var fault uint64
	for i, b := range bufs {
		ptr, n, err := Bound(b, base)
		if err != nil {
			return vals, fmt.Errorf("buffer %d: %v", i, err)
		}
		if i == l.Buffers {
			fault = ptr
			continue
		}
		vals = append(vals, ptr, uint64(n))
	}
	if l.Uniforms != 0 {
		vals = append(vals, l.Uniforms)
	}
	if l.Fault {
		vals = append(vals, fault)
	}
	return vals, nil
}

// Call runs launch with kernelParams, the array of pointers to each of
// vals (the form cuLaunchKernel and hipModuleLaunchKernel take), which it
// builds after vals in the same slice, pinned for the call; it returns
// the slice for reuse.
func Call(vals []uint64, launch func(params unsafe.Pointer) uint32) ([]uint64, uint32) {
	n := len(vals)
	if n == 0 {
		return vals, launch(nil)
	}
	vals = append(vals, make([]uint64, n)...)
	var pin runtime.Pinner
	pin.Pin(&vals[0])
	defer pin.Unpin()
	for i := range n {
		vals[n+i] = uint64(uintptr(unsafe.Pointer(&vals[i])))
	}
	return vals[:0], launch(unsafe.Pointer(&vals[n]))
}
