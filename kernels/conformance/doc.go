// Package conformance is the conformance suite of xpu: kernels written in
// the kernel language that together touch every part of it (thread
// coordinates, buffers of scalars and structs, uniforms, integer and float
// arithmetic, math, private and shared arrays, device functions, control
// flow, barriers, atomics and templates), and a table of cases that runs
// each of them on a device and compares the result with the reference
// runner [xpu.Run].
//
// Every backend runs the same table, unchanged: [Cases], run by the
// harness of package gputest (gputest.Check).
package conformance

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
