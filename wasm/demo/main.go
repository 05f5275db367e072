// Command demo opens the best device xpu has here, shows it and its facts,
// runs the conformance suite, its cases of the runtime's streams (capture
// and replay, two streams on one buffer), the wave suite and the kernel
// library's cases (package kernels/librarytest) on it against the
// reference runner in the same program, and runs the benchmarks of
// package devicebench, each beside its reference point.
//
// Built for GOOS=js GOARCH=wasm and served by wasm/serve, it runs on the
// browser's WebGPU device (navigator.gpu), or on the CPU backend when the
// browser has none, and says so; it shows its report on the page and
// leaves it, as JSON, in globalThis.xpu.report. Elsewhere it prints the
// report. XPU_BACKEND forces a backend, XPU_SEED fixes the inputs.
package main

import "os"

func main() {
	v := newView()
	r := run(v.show)
	v.done(r)
	if !r.OK() {
		os.Exit(1)
	}
}
