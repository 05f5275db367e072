package gpuimpl

// This file is the binders generated code sets as a kernel's
// [schema.Kernel.Bind]: Bind0 to Bind16 (bind_gen.go), one for each
// count of parameters after the Thread, so that the reference runner
// calls a kernel through a closure over its arguments rather than
// through reflection, which costs more than a small kernel's body.

//go:generate go run ./internal/bindgen
