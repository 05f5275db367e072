// Package golower is the Go lowering of the kernel IR for the CPU backend:
// Generate turns a kernel into the Go source of one function that runs
// every work-item of a block in a loop.
//
// Barriers split the kernel body into segments (loop fission, by package
// fission, whose plan the host lowering runs too): each segment is a loop
// over the block's work-items, and a barrier is the end of one loop and
// the start of the next. A barrier may sit inside an if or
// a loop whose condition is workgroup-uniform (the uniformity analysis of
// package ir decides, and the generated code checks that every work-item
// agrees); such an if or loop runs once per block around the work-item
// loops of its body. A value live across a barrier becomes a per-work-item
// array; shared arrays are arrays of the block. A kernel the lowering
// cannot carry is refused with its name and the reason (ErrUnsupported),
// never lowered wrongly.
//
// The generated function has the signature of gpuimpl.CPUFunc and refers
// only to the packages xpu and gpuimpl and to the kernel package's own
// struct types. Layering: this package reads the IR; it knows no go/ast and no
// runtime.
package golower

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
	"github.com/goxpu/xpu/schema"
)

// ErrUnsupported is wrapped by the error of a kernel the lowering refuses.
var ErrUnsupported = errors.New("not supported by the Go lowering")

// Imports are the names under which the generated file imports the
// packages xpu and gpu/gpuimpl; empty names mean "xpu" and "gpuimpl".
type Imports struct{ XPU, GPUImpl string }

// Generate returns the Go source of func fn(b *gpuimpl.CPUBlock), running
// the kernel k over one block, for a file that imports xpu and gpuimpl as
// imp says. The output depends only on k, fn and imp.
func Generate(k *ir.Kernel, fn string, imp Imports) (string, error) {
	g, err := generate(k, fn, imp)
	if err != nil {
		return "", err
	}
	return g.source(), nil
}

// Artifact lowers k as Generate does to its Go artifact for the cpu
// backend: Code is the function's source, and the manifest's facts are
// those of the function: the library calls it makes (NativeOps, spelled
// "xpu.Sqrt", "gpuimpl.CPUWave" whatever the file's import names) and, for a
// kernel with waves, the emulated tier, whose loops run any width.
func Artifact(k *ir.Kernel, fn string, imp Imports) (schema.Artifact, error) {
	g, err := generate(k, fn, imp)
	if err != nil {
		return schema.Artifact{}, err
	}
	a := schema.Artifact{
		Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo, NativeOps: slices.Sorted(maps.Keys(g.ops))},
		Code:     g.source(),
	}
	if k.Wave != 0 || ir.UsesWaves(k) {
		a.WaveTier = schema.TierEmulated
	}
	return a, nil
}

// source is the function g wrote.
func (g *gen) source() string { return g.out.String() }

// generate lowers k into a gen whose out holds the function.
func generate(k *ir.Kernel, fn string, imp Imports) (*gen, error) {
	g := &gen{k: k, fn: fn, xpu: cmp.Or(imp.XPU, "xpu"), gpu: cmp.Or(imp.GPUImpl, "gpuimpl"), ops: map[string]bool{}}
	for i, n := range k.Block {
		g.size[i] = max(n, 1)
	}
	if bn := g.size[0] * g.size[1] * g.size[2]; bn > 1024 {
		return nil, g.refuse(k.Pos, "a block of %d work-items exceeds 1024", bn)
	}
	if err := g.plan(); err != nil {
		return nil, err
	}
	g.function()
	if g.err != nil {
		return nil, g.err
	}
	return g, nil
}

// call returns the name of the library function name of package pkg
// ("xpu" or "gpuimpl") as the file spells it, and records the call among
// the kernel's native operations.
func (g *gen) call(pkg, name string) string {
	g.ops[pkg+"."+name] = true
	if pkg == "gpuimpl" {
		return g.gpu + "." + name
	}
	return g.xpu + "." + name
}

// gen holds the state of one kernel's lowering.
type gen struct {
	k        *ir.Kernel
	fn       string
	xpu, gpu string          // the import names of packages xpu and gpu/gpuimpl
	ops      map[string]bool // the library calls made, as call records them
	size     [3]uint32       // block size, at least 1 on each axis
	out      strings.Builder

	nodes  []fission.Node   // the kernel body, split at barriers
	cross  map[*ir.Var]bool // variables kept in per-work-item arrays
	store  storage          // where the other variables live
	done   bool             // the kernel returns early and has barriers
	nSeg   int              // segment and condition ids handed out
	indent int

	// Within a segment or device function being written.
	inFunc    bool
	segLabel  string            // label of the innermost work-item loop
	usedLabel bool              // the segment's label was used
	rowMode   bool              // copies move a row of lanes (rows.go)
	window    map[string]string // accesses written through windows (window.go)
	guarded   *guard            // the guard the loop runs over the lanes of (guard.go)
	loops     []*loopW          // IR loops open in the current segment or function
	err       error
}

// loopW is an IR loop being written.
type loopW struct {
	cont     string // label before its post statements, "" without post
	usedCont bool
}

// refuse returns the error of a kernel the lowering cannot carry.
func (g *gen) refuse(pos ir.Pos, format string, args ...any) error {
	return fmt.Errorf("%v: [xpu-cpu-lowering] kernel %s: %s: %w", pos, g.k.Name, fmt.Sprintf(format, args...), ErrUnsupported)
}

// fail records the first error met while writing.
func (g *gen) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

// line writes one line at the current indentation.
func (g *gen) line(format string, args ...any) {
	for range g.indent {
		g.out.WriteByte('\t')
	}
	fmt.Fprintf(&g.out, format, args...)
	g.out.WriteByte('\n')
}

// blockCount is the number of work-items of a block.
func (g *gen) blockCount() uint32 { return g.size[0] * g.size[1] * g.size[2] }
