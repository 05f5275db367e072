// Package llama is a llama-style decoder layer built from the kernel
// library's operations (package kernels): RMSNorm, the attention
// projections, RoPE, causal attention over a KV cache, the output
// projection and its residual, then RMSNorm, the SwiGLU MLP and its
// residual, one token a step. Its weights come from a GGUF file as
// llama.cpp names them ("blk.0.attn_q.weight", ...), each matrix in any
// format the registry has a mat-vec for (f32, Q8_0, Q4_0, Q4_K) and the
// norms in f32; [Write] writes such a file, [Open] reads one onto a
// device. [Reference] is the same layer in plain Go, in float64, which
// the tests check the device's against.
//
// Layering: llama composes the library's front (kernels), its tensors
// and formats; it reads GGUF headers with gguf-parser-go. No kernel is
// written here.
package llama
