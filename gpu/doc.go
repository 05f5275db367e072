// Package gpu is the xpu runtime: it opens a device of one of the compiled-in
// backends, allocates typed device buffers, and launches registered kernels
// on streams, checking every launch before a backend sees it.
//
// Kernels reach the runtime only as [KernelSpec] values that generated code
// passes to [Register] from its init functions; the runtime knows no codegen.
// Generated code imports only xpu and gpu, so this package re-exports what
// it needs from gpu/driver.
//
// Backends implement the gpu/driver contract and register an opener with
// the runtime from a file of this package (webgpu_backend.go, and one per
// further backend). [Open] tries them in the order cuda, hip, webgpu, cpu;
// the environment variable XPU_BACKEND forces one.
//
// Every error the runtime returns is a Go error that wraps one of the
// sentinel errors of errors.go, for use with errors.Is. The runtime never
// panics on bad input, nil and zero receivers included: a method of a nil
// or zero Device or Stream returns an error wrapping [ErrArgs] (or a zero
// result where it returns no error).
package gpu
