// Package nn is the neural-network layers of the kernel library, in the
// kernel language, over row-major float32 matrices: the row-wise
// Softmax, RMSNorm and LayerNorm, the activations SiLU and GELU, the
// element-wise Add and Mul of residuals and gates, the
// rotary position embedding RoPE, as llama.cpp computes them, and causal
// Attention of queries over a KV cache, flash-style (an online softmax
// over tiles of positions), with grouped-query heads ([Attend]).
//
// A row-wise kernel gives each row a block of rowBlock (32) work-items,
// which stride through its columns and combine their partials in shared
// memory in two folds (three barriers): any number of columns, the row
// read twice and written once. The softmax template has two members:
// SoftmaxStored takes one exponential an element, stored in the output as
// it is summed and scaled there after (the output reread and rewritten,
// in cache); SoftmaxOnline keeps a running maximum and a sum rescaled to it, then
// takes each exponential again as it writes the output once. Which is
// faster depends on the device (the library measures it). LayerNorm
// keeps Welford's running moments and merges them. A small block suits
// the CPU devices, the host tier and lavapipe, where a block's work-items
// run in a few vectors that stride through the row: a row of 4096
// columns is 128 columns a work-item. Rows go over
// a grid of up to 65535 blocks in X and as many rows of such in Y
// ([RowGroups]), every work-item of a block reaching every barrier.
//
// Semantics at the edges: a row holding a NaN gives NaN throughout
// (Softmax), as its norms do; so does +Inf in Softmax's row, whose
// exp(inf - inf) enters the sum, as IEEE arithmetic has it.
//
// Layering: the kernels import only package xpu; the host entry points
// the runtime; xpu_gen.go, their generated code (xpu gen), imports xpu
// and the runtime.
package nn

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
