// Package wasm is xpu's browser harness: it builds a Go program for
// GOOS=js GOARCH=wasm and serves it with a page and a loader that run it
// through the Go distribution's wasm_exec.js. The demo program
// (wasm/demo) runs on the browser's WebGPU device, or on the CPU backend
// where the browser has none; the command wasm/serve serves it, and this
// package's test runs it in a headless Chromium and checks its report.
//
// Layering: the harness knows neither the runtime nor codegen; it builds
// and serves a program. The program reports through globalThis.xpu
// (done, report, error), which the test reads over the DevTools protocol.
package wasm
