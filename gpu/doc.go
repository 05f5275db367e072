// Package gpu is the xpu runtime: it opens a device of one of the compiled-in
// backends, allocates typed device buffers, and launches registered kernels
// on streams, checking every launch before a backend sees it.
//
// Kernels reach the runtime only as specs (gpu/driver.Kernel) that
// generated code registers through package gpu/gpuimpl from its init
// functions: each carries its code as a list of artifacts (package schema),
// and the driver of a device picks the one it runs. The runtime knows no
// codegen, and this package exports nothing only generated code uses.
//
// Backends implement the gpu/driver contract and register an opener with
// the runtime from a file of this package (cpu_backend.go,
// webgpu_backend.go, and one per further backend); their packages live
// under gpu/ (gpu/cpu, gpu/webgpu). [Open] tries them in the order cuda, hip, webgpu, cpu;
// the environment variable XPU_BACKEND forces one.
//
// Every error the runtime returns is a Go error that wraps one of the
// sentinel errors of errors.go, for use with errors.Is. The runtime never
// panics on bad input, nil and zero receivers included: a method of a nil
// or zero Device or Stream returns an error wrapping [ErrArgs] (or a zero
// result where it returns no error).
package gpu
