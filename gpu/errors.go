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

	// ErrNoCode: no code is registered for the kernel on the device's
	// backend: it was not registered, its spec is invalid, it carries a
	// Refused reason, or no lowering produced code for this backend.
	ErrNoCode = errors.New("no code registered")

	// ErrRefused is ErrNoCode, under the name it had first.
	ErrRefused = ErrNoCode

	// ErrMisaligned: a buffer view's byte offset does not meet the
	// device's storage offset alignment (Limits.StorageOffsetAlignment).
	ErrMisaligned = errors.New("misaligned buffer")

	// ErrScalarTwin: the kernel uses wave verbs and its code for this
	// backend is the scalar twin (a wave of one work-item).
	ErrScalarTwin = errors.New("wave kernel would run its scalar twin")

	// ErrWaveWidth: the device cannot run the kernel at its declared
	// wave width.
	ErrWaveWidth = errors.New("unsupported declared wave width")

	// ErrBlock: a launch asked for a block that differs from the one the
	// kernel pinned.
	ErrBlock = errors.New("block differs from the pinned one")

	// ErrDeadline: the launch's deadline passed before it was submitted;
	// it was not run.
	ErrDeadline = errors.New("missed deadline")

	// ErrBufferLen: a buffer holds fewer elements than the kernel
	// declares it needs for the launch.
	ErrBufferLen = errors.New("buffer too short")

	// ErrArgs: the arguments do not fit the kernel's parameters (count,
	// types, aliasing of a written buffer), or a call was made on a nil
	// or zero Device or Stream, or with a nil context or func.
	ErrArgs = errors.New("bad kernel arguments")

	// ErrForeignBuffer: a buffer belongs to another device.
	ErrForeignBuffer = errors.New("buffer of another device")

	// ErrReleased: a buffer was used after Release.
	ErrReleased = errors.New("buffer released")

	// ErrGrid: the grid is empty, has more groups on an axis than the
	// device allows or more work-items on an axis than a uint32 global
	// index reaches, or has more than 2^64 groups.
	ErrGrid = errors.New("bad grid")

	// ErrLimits: the kernel needs more threads per block, shared memory,
	// storage buffers or uniform bytes than the device has, or a buffer
	// is larger than the device allows (Limits.MaxBufferBytes; the CPU
	// backend's is the machine's physical memory) or could allocate.
	ErrLimits = errors.New("exceeds device limits")

	// ErrBudget: an allocation would bring the device's buffers over the
	// memory budget the program set (Device.SetMemoryBudget), or a
	// launch's buffers hold more than it.
	ErrBudget = errors.New("exceeds memory budget")

	// ErrCompile: the backend could not compile the kernel.
	ErrCompile = errors.New("kernel does not compile")

	// ErrType: a buffer element type is not a 32-bit scalar or a struct
	// of them.
	ErrType = errors.New("unsupported element type")

	// ErrSize: a host slice does not match the buffer's length, a length
	// is negative or its bytes overflow an int, a view's bounds lie
	// outside its buffer, or a launch binds an empty view.
	ErrSize = errors.New("size mismatch")

	// ErrClosed: the device or stream was closed.
	ErrClosed = errors.New("device closed")

	// ErrTimeout: a wait (SyncContext, ReadContext, a launch that runs
	// as it is recorded, or any wait under the device's wait limit)
	// ended, by its context's deadline or cancellation, before the work
	// it waited for had completed. The error also wraps the context's
	// error.
	ErrTimeout = driver.ErrTimeout

	// ErrLost: the device can run nothing more. A device that cannot
	// stop work it has started (WebGPU) is lost once a wait on it times
	// out; every later call on it but Close and Release returns this.
	ErrLost = driver.ErrLost

	// ErrCapture: what a stream's capture cannot hold (capture.go): a
	// sync, flush, timing or close of the capturing stream; a read,
	// write, download or release of a buffer a captured launch binds; a
	// launch with a deadline (a replay runs it at another time); host
	// code; a capture within a capture; a replay while capturing.
	ErrCapture = errors.New("not allowed during capture")
)
