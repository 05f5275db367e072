// Package blas is single-precision BLAS levels 1 and 2 written in the
// kernel language, with entry points shaped as gonum's blas32 routines:
// Sgemv (y = alpha*op(A)*x + beta*y, both transposes, lda, incX, incY),
// Saxpy (y = alpha*x + y) and Sscal (x = alpha*x), each on gpu.Buffers
// and a gpu.Stream where gonum takes slices. Level 3, Sgemm, is package
// kernels/matmul, whose tiles its tuner chooses.
//
// The kernels take strides as int32 uniforms, BLAS's negative increments
// included (a vector with a negative increment is stored from its last
// element), and each entry point checks BLAS's rules on the host and
// refuses a call that breaks one with an error naming it (gpu.ErrArgs,
// gpu.ErrBufferLen); a kernel's //xpu:kernel directive declares the
// lengths every valid call needs, which a direct launch meets too.
// Where BLAS says a matrix or vector is not read (beta 0, alpha 0), the
// kernels do not read it, so that NaN in it does not propagate.
//
// Layering: the kernels import only package xpu, the kernel vocabulary;
// xpu_gen.go, their generated code (xpu gen), imports xpu and the runtime
// (gpu, gpu/gpuimpl); the entry points import the runtime and gonum's
// blas package for its Transpose alone. The tests check every kernel on
// every device present against the reference runner, and every entry
// point against gonum's pure-Go implementation.
package blas

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
