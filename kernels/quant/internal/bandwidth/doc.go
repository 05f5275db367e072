// Package bandwidth holds the reference point of package quant's
// benchmarks: a copy of 32-bit words, the rate at which a kernel streams
// memory on a device, which a mat-vec of quantized weights (read once
// each) should approach.
//
// Layering: the kernel imports only package xpu; xpu_gen.go, its
// generated code, imports xpu and the runtime. Its test checks it on
// every device present against the reference runner.
package bandwidth

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
