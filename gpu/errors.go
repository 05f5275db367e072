package gpu

import (
	"errors"

	"github.com/goxpu/xpu/gpu/driver"
)

// The reasons a call is refused. Each error the runtime returns wraps one
// of them, with a message naming the kernel and the parameter concerned.
var (
	// ErrUnavailable: the backend has no device on this machine (no
	// adapter, no library, no driver) or is not compiled in.
	ErrUnavailable = driver.ErrUnavailable

	// ErrRefused: the kernel has no code: it was not registered, its spec
	// is invalid, or it carries a Refused reason.
	ErrRefused = errors.New("kernel refused")

	// ErrArgs: the arguments do not fit the kernel's parameters (count,
	// types, aliasing of a written buffer).
	ErrArgs = errors.New("bad kernel arguments")

	// ErrForeignBuffer: a buffer belongs to another device.
	ErrForeignBuffer = errors.New("buffer of another device")

	// ErrReleased: a buffer was used after Release.
	ErrReleased = errors.New("buffer released")

	// ErrGrid: the grid is empty or has more groups on an axis than the
	// device allows.
	ErrGrid = errors.New("bad grid")

	// ErrLimits: the kernel needs more threads per block, shared memory,
	// storage buffers or uniform bytes than the device has.
	ErrLimits = errors.New("exceeds device limits")

	// ErrCompile: the backend could not compile the kernel.
	ErrCompile = errors.New("kernel does not compile")

	// ErrType: a buffer element type is not a 32-bit scalar or a struct
	// of them.
	ErrType = errors.New("unsupported element type")

	// ErrSize: a host slice does not match the buffer's length, or a
	// length is negative.
	ErrSize = errors.New("size mismatch")

	// ErrClosed: the device or stream was closed.
	ErrClosed = errors.New("device closed")
)
