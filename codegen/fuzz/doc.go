// Package fuzz fuzzes the whole generator: every kernel the front end
// accepts is lowered (package codegen's Lower), its WGSL is compiled by
// both WGSL compilers the runtime drives (naga through wgpu-native, Tint
// through Dawn) and its generated file, Go lowering included, is
// type-checked with the kernel's source against the real xpu and gpu
// packages.
//
// The package's own code is a generator: [Source] turns arbitrary bytes
// into the source of a well-typed kernel (expressions of every type and
// operator, deep nesting, loops, barriers in uniform control flow, shared
// and private arrays, structs, device functions, atomics, wave verbs,
// extreme constants), so that the fuzzer reaches the lowerings instead of
// stopping at go/types. Its tests hold the two fuzz targets: FuzzPipeline
// mutates kernel source (seeded with the project's kernels and the front
// end's seeds), FuzzGenerated mutates the generator's bytes.
//
// A WGSL compiler runs in a child process (the test binary, re-executed as
// a server), so that a compiler that crashes or hangs on a module is a
// failing input with its source and the compiler's last words, not a dead
// fuzzer.
//
// Layering: the generator knows only the kernel language (it writes Go
// source). The tests import codegen's stages and, to compile WGSL, the
// runtime's WebGPU drivers; nothing imports this package.
package fuzz
