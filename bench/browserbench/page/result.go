// Command page is the browser half of bench/browserbench: in a page that
// has loaded tfjs (globalThis.tf) it times kernels/matmul's Sgemm on the
// browser's WebGPU device beside tf.matMul on tfjs's WebGPU backend, both
// on the same n x n matrices, interleaved, each call read back, and
// leaves a Result, as JSON, in globalThis.xpu.report (see wasm's
// page/loader.js). Flags: -n (the size), -reps (the timed rounds)
// and -member (the SGEMM member, instead of the tuner's choice).
package main

// Result is one size's timings.
type Result struct {
	N      int       `json:"n"`
	Device string    `json:"device"`
	TFJS   string    `json:"tfjs"`   // tfjs-core's version
	Member string    `json:"member"` // the SGEMM member Sgemm launched
	Source string    `json:"source"` // how the tuner chose it
	Ours   []float64 `json:"ours_s"` // seconds per call, each read back
	Theirs []float64 `json:"tfjs_s"`
	// MaxDiff is the largest difference of the two products' elements,
	// in units of its bound (at most 1).
	MaxDiff float64 `json:"max_diff"`
	Error   string  `json:"error,omitempty"`
}
