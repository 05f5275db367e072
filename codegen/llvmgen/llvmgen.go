// Package llvmgen lowers a kernel of the IR to LLVM IR, in one of two
// shapes that share the lowering of expressions, places, calls and
// statements.
//
// For the host CPU (Hosts) it is vectorized SPMD-style: the work-items
// of a block run in chunks of W lanes (W the target's float32 lanes),
// uniform values as scalars and varying ones as <W x T> vectors,
// divergent control flow under an execution mask. The entry it writes has
// the calling contract of schema/host.go (HostLaunch, HostFault, the Host
// codes, HostSymbol).
//
// For a GPU (PTX, HSACO) a thread runs one work-item: every value is a
// scalar and all control flow branches (thread.go). The entry has the
// contract of schema/ptx.go and schema/hsaco.go; a fault sets its bit of
// the fault word and ends the thread, where the host's entry returns it.
//
// The lowering carries Go's semantics, as the kernel's own Go function
// (the reference) and the Go lowering do: integer arithmetic wraps,
// division by zero and negative shift counts fault, shifts by at least
// the width give 0 or the sign, float32 arithmetic is IEEE without fast
// math or contraction, float-to-integer conversion out of range gives
// what Go gives on the target's GOARCH, and every access to a buffer, shared or private array
// is bounds-checked for the lanes that run it, an out-of-range one
// returning HostFaultIndex. On the host, exp and tanh are computed in
// float32 by vector IR within 1 and 2 ulp (floatmath.go), the other
// transcendental functions in double precision by the C library's libm,
// lane by lane (the reference computes them with Go's math package in
// double and rounds), so a shared object must be linked with Libs; on a
// GPU, in float32 within WGSL's bounds (threadmath.go).
//
// On the host, barriers split the body (loop fission): each barrier-free segment runs
// as a loop over the block's chunks, an if or loop around a barrier once
// per block around its segments, and variables live across segments in
// a slot per chunk (plan.go; the split is package fission's, which the
// Go lowering runs too).
//
// A wave is a chunk, an aligned part of one (a declared width dividing
// W) or aligned consecutive chunks (a declared multiple of W, where a
// verb splits the body as a barrier does). WaveWidth() is the declared
// width or W: the driver sets HostLaunch.Wave, and the width it runs the
// reference at, to Wave(k, t).
//
// On a GPU a wave is the hardware's (a warp), an aligned segment of it,
// or, for a declared multiple of it, waves folded through shared memory
// (threadwave.go).
//
// What it cannot carry it refuses by name with an *Error wrapping
// ErrUnsupported; it never writes wrong code: on the host, barriers in
// device functions, a break or continue of a loop around a barrier, a
// declared wave width neither a divisor nor a multiple of W, a row of a
// private array of arrays chosen by an index that differs across lanes
// and used as an array value; anywhere, WaveBallot at a wave of more than
// 32 lanes.
//
// Layering: this package knows the kernel IR and its fission plan, the
// LLVM syntax tree and the calling contracts of schema; it runs no tool
// (codegen/sidecar does).
package llvmgen

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

// ErrUnsupported is wrapped by every refusal of the lowering.
var ErrUnsupported = errors.New("not supported by the LLVM lowering")

// Error is a kernel the lowering refuses, with the reason.
type Error struct {
	Kernel string
	Pos    ir.Pos
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("[xpu-llvm-lowering] kernel %s: %v: %s", e.Kernel, e.Pos, e.Reason)
}

// Unwrap returns ErrUnsupported.
func (e *Error) Unwrap() error { return ErrUnsupported }

// Target is an instruction-set level of the host that the lowering
// writes code for.
type Target struct {
	Arch       Arch
	ISA        string // the selector's ISA (schema.Selector.ISA)
	Triple     string
	DataLayout string // the triple's, as LLVM 19 writes it
	// GOARCH is the Go architecture whose processes run the code: its
	// float-to-integer conversions are those of the reference there
	// (amd64's where it is empty: a GPU's, whose reference runs on the
	// host).
	GOARCH   string
	CPU      string
	Features string // llc's -mattr and the functions' "target-features"
	// Lanes is W: on the host the float32 lanes of a vector register, on
	// a GPU the threads of its wave (warp).
	Lanes int
	// VectorBits is the host functions' "prefer-vector-width".
	VectorBits int
}

// Arch is the kind of machine a target is, which decides the shape of
// the code.
type Arch int

// The kinds of target.
const (
	// ArchHost is a CPU: the entry of schema/host.go runs a block's
	// work-items in chunks of W lanes.
	ArchHost Arch = iota
	// ArchNVPTX is an NVIDIA GPU (PTX, schema/ptx.go): a thread per
	// work-item, a warp of 32 a wave.
	ArchNVPTX
	// ArchAMDGCN is an AMD GPU (HSACO, schema/hsaco.go): a thread per
	// work-item, a wavefront of 32 or 64 a wave.
	ArchAMDGCN
)

// String returns the ISA level.
func (t Target) String() string { return t.ISA }

const x86Triple = "x86_64-unknown-linux-gnu"

// x86DataLayout is the data layout of x86_64 Linux.
const x86DataLayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

// Hosts lists the targets, the widest of an architecture after its
// narrower ones: x86-64-v3 (AVX2) and v4 (AVX-512), and armv8-a, the
// AArch64 baseline, whose Advanced SIMD (NEON, mandatory in AArch64) is
// 128 bits wide.
func Hosts() []Target {
	v3 := "+avx,+avx2,+bmi,+bmi2,+cx16,+f16c,+fma,+lzcnt,+movbe,+popcnt,+sse4.2,+xsave"
	return []Target{
		{ISA: "x86-64-v3", Triple: x86Triple, DataLayout: x86DataLayout, GOARCH: "amd64", CPU: "x86-64-v3", Features: v3, Lanes: 8, VectorBits: 256},
		{ISA: "x86-64-v4", Triple: x86Triple, DataLayout: x86DataLayout, GOARCH: "amd64", CPU: "x86-64-v4",
			Features: v3 + ",+avx512f,+avx512bw,+avx512cd,+avx512dq,+avx512vl,+evex512,+prefer-no-scatter", Lanes: 16, VectorBits: 512},
		{ISA: "armv8-a", Triple: "aarch64-unknown-linux-gnu", DataLayout: "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32",
			GOARCH: "arm64", CPU: "generic", Features: "+v8a,+neon", Lanes: 4, VectorBits: 128},
	}
}

const nvptxDataLayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"

const amdgcnDataLayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"

// PTX lists the NVIDIA targets: one baseline, compute capability 7.0
// (Volta), whose PTX the driver compiles for any later device.
func PTX() []Target {
	return []Target{{Arch: ArchNVPTX, ISA: schema.PTXTarget(7, 0), Triple: "nvptx64-nvidia-cuda", CPU: "sm_70",
		Features: "+ptx64", Lanes: 32, DataLayout: nvptxDataLayout}}
}

// HSACO lists the AMD targets: a code object runs on its architecture
// alone, so each is one. CDNA's run waves of 64 threads, RDNA's of 32.
func HSACO() []Target {
	amd := func(gfx string, wave int) Target {
		return Target{Arch: ArchAMDGCN, ISA: gfx, Triple: schema.HSACOTriple, CPU: gfx,
			Features: "+wavefrontsize" + strconv.Itoa(wave), Lanes: wave, DataLayout: amdgcnDataLayout}
	}
	return []Target{amd("gfx90a", 64), amd("gfx942", 64), amd("gfx1100", 32)}
}

// Libs are the linker arguments of the libraries the lowered code calls
// (libm's transcendental functions).
var Libs = []string{"-l:libm.so.6"}

// Lower lowers the kernel k, analyzed (ir.Analyze), to a module for t
// holding its entry, schema.HostSymbol(k.Name), and internal functions of
// its own.
func Lower(k *ir.Kernel, t Target) (m *llvm.Module, err error) {
	if k.Uniform == nil {
		return nil, &Error{Kernel: k.Name, Pos: k.Pos, Reason: "the kernel is not analyzed (ir.Analyze)"}
	}
	if t.Lanes < 2 || t.Lanes&(t.Lanes-1) != 0 || t.Lanes > 64 {
		return nil, &Error{Kernel: k.Name, Pos: k.Pos, Reason: fmt.Sprintf("target %s: %d lanes is not a power of two from 2 to 64", t.ISA, t.Lanes)}
	}
	if err := refuse(k, t); err != nil {
		return nil, err
	}
	g := newGen(k, t)
	defer func() {
		// A refusal deep in the lowering unwinds to here as a panic of
		// *Error; any other panic is a bug and propagates.
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			m, err = nil, e
		}
	}()
	if g.simt() {
		g.kernelThread()
	} else {
		g.entry()
	}
	return g.m, nil
}

// refuse reports what the lowering does not carry: a declared wave width
// other than the target's lanes, and barriers in device functions.
func refuse(k *ir.Kernel, t Target) error {
	if t.Arch != ArchHost {
		// Barriers are the GPU's own, wherever the kernel calls them.
		if w, n := int(k.Wave), t.Lanes; w != 0 && n%w != 0 && w%n != 0 {
			return &Error{Kernel: k.Name, Pos: k.Pos, Reason: fmt.Sprintf("the kernel declares wave=%d; waves of %s are a divisor or a multiple of its %d-thread wave", w, t.ISA, n)}
		}
		return nil
	}
	if w, n := int(k.Wave), t.Lanes; w != 0 && n%w != 0 && w%n != 0 {
		return &Error{Kernel: k.Name, Pos: k.Pos, Reason: fmt.Sprintf("the kernel declares wave=%d; waves of %s are a divisor or a multiple of %d lanes", w, t.ISA, n)}
	}
	var bad *Error
	see := func(b *ir.Block) {
		ir.WalkStmts(b, func(s ir.Stmt) bool {
			if bad != nil {
				return false
			}
			for _, x := range ir.StmtExprs(s) {
				ir.WalkExpr(x, func(x ir.Expr) bool {
					if c, ok := x.(*ir.Call); ok && c.Func.Barrier && bad == nil {
						bad = &Error{Kernel: k.Name, Pos: c.Pos, Reason: "a call of " + c.Func.GoName + ", which reaches a barrier: the front end inlines it (ir.Flatten)"}
					}
					return bad == nil
				})
			}
			return bad == nil
		})
	}
	see(k.Body)
	if bad != nil {
		return bad
	}
	return nil
}

// Wave returns WaveWidth() of k's code for t: its declared width, or the
// target's lanes. The driver puts it in HostLaunch.Wave.
func Wave(k *ir.Kernel, t Target) uint32 {
	if k.Wave != 0 {
		return k.Wave
	}
	return uint32(t.Lanes)
}

// Symbol is the entry's name for k.
func Symbol(k *ir.Kernel) string { return schema.HostSymbol(k.Name) }
