package codegen

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/hsaco"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/llvmgen"
	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

// llvmTarget is the LLVM lowering for one kind of machine: a kernel
// lowers to one LLVM module per machine of the list (its artifact's Code
// is the module's text, which its hash is of), and the link compiles the
// modules with the LLVM sidecar into one library per machine holding the
// package's kernels. A kernel the lowering refuses for some GPUs of the
// list has the others' artifacts, and the refusal says why those have
// none; one it refuses at some level of the host keeps its Go lowering.
type llvmTarget struct {
	backend  schema.Backend
	target   schema.Target
	machines func() []llvmgen.Target
}

// The LLVM rows of the targets table: the CPU backend's host tier (a
// shared object per instruction set level; a kernel it refuses keeps its
// Go lowering), NVIDIA's PTX (one module of PTX text per baseline) and
// AMD's code objects (one per architecture).
var (
	llvmHostTarget  = llvmTarget{schema.BackendCPU, schema.TargetLLVMHost, llvmgen.Hosts}
	llvmPTXTarget   = llvmTarget{schema.BackendCUDA, schema.TargetPTX, llvmgen.PTX}
	llvmHSACOTarget = llvmTarget{schema.BackendHIP, schema.TargetHSACO, llvmgen.HSACO}
)

func (t llvmTarget) Form() emit.Form { return emit.Form{Backend: t.backend, Target: t.target} }

func (t llvmTarget) Lower(k *ir.Kernel, _ *emit.Names) ([]schema.Artifact, error) {
	var arts []schema.Artifact
	var refused []error
	for _, h := range t.machines() {
		m, err := llvmgen.Lower(k, h)
		if errors.Is(err, llvmgen.ErrUnsupported) {
			refused = append(refused, err)
			continue
		}
		if err != nil {
			return nil, err
		}
		code, err := llvm.Sprint(m)
		if err != nil {
			return nil, err
		}
		a := schema.Artifact{
			Manifest: schema.Manifest{Backend: t.backend, Target: t.target},
			Selector: schema.Selector{ISA: h.ISA},
			Symbol:   llvmgen.Symbol(k),
			Code:     code,
		}
		if h.Arch != llvmgen.ArchHost {
			// A GPU entry always takes the fault word (schema/ptx.go):
			// its accesses are bounds-checked.
			a.Fault = true
			a.PrivateBytes = new(ir.PrivateBytes(k))
		}
		if k.Wave != 0 || ir.UsesWaves(k) {
			// On the host a wave is a chunk of the vector's lanes
			// (native), an aligned part of one (narrow, a declared width
			// dividing the lanes) or several chunks (folded, a multiple
			// of them); on a GPU the hardware's wave or an aligned
			// segment of it. Either way at the width the code was lowered
			// for, as on a device whose subgroups are that many lanes.
			a.Selector.Width = llvmgen.Wave(k, h)
			switch w := int(a.Selector.Width); {
			case w < h.Lanes:
				a.WaveTier = schema.TierNarrow
			case w > h.Lanes:
				a.WaveTier = schema.TierFolded
			default:
				a.WaveTier = schema.TierNative
			}
		}
		arts = append(arts, a)
	}
	if len(refused) > 0 {
		if t.backend == schema.BackendCPU {
			// The host's levels are one tier: all, or the Go lowering.
			arts = nil
		}
		return arts, refusal{errors.Join(refused...)}
	}
	return arts, nil
}

// Link compiles every artifact's module and builds the library of each
// machine, in the order of arts.
func (t llvmTarget) Link(ctx context.Context, arts []*schema.Artifact) (map[string][]byte, error) {
	tools, err := sidecar.Find(ctx)
	if errors.Is(err, sidecar.ErrNotFound) {
		return nil, fmt.Errorf("%w: %v", ErrNoTools, err)
	}
	if err != nil {
		return nil, err
	}
	machines := map[string]llvmgen.Target{}
	for _, h := range t.machines() {
		machines[h.ISA] = h
	}
	byFile := map[string][]*schema.Artifact{}
	var files []string
	for _, a := range arts {
		if _, ok := machines[a.Selector.ISA]; !ok {
			return nil, fmt.Errorf("codegen: %s: no %s machine %q", a.Symbol, t.target, a.Selector.ISA)
		}
		f := emit.LibraryFile(a)
		if byFile[f] == nil {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], a)
	}
	libs := map[string][]byte{}
	for _, f := range files {
		group := byFile[f]
		h := machines[group[0].Selector.ISA]
		tgt := sidecarTarget(h)
		var lib []byte
		var err error
		switch h.Arch {
		case llvmgen.ArchNVPTX:
			lib, err = t.ptx(ctx, tools, tgt, group)
		case llvmgen.ArchAMDGCN:
			lib, err = t.codeObject(ctx, tools, tgt, group)
		default:
			lib, err = t.sharedObject(ctx, tools, tgt, group)
		}
		if err != nil {
			return nil, fmt.Errorf("building %s: %w", f, err)
		}
		libs[f] = lib
	}
	return libs, nil
}

// linkIR links the modules of group into one.
func linkIR(ctx context.Context, tools *sidecar.Tools, group []*schema.Artifact) ([]byte, error) {
	mods := make([][]byte, len(group))
	for i, a := range group {
		mods[i] = []byte(a.Code)
	}
	return tools.LinkIR(ctx, mods)
}

// ptx links the modules of group into one and compiles it to PTX text.
func (llvmTarget) ptx(ctx context.Context, tools *sidecar.Tools, tgt sidecar.Target, group []*schema.Artifact) ([]byte, error) {
	m, err := linkIR(ctx, tools, group)
	if err != nil {
		return nil, err
	}
	return tools.Assembly(ctx, m, tgt)
}

// codeObject links the modules of group into one (a code object holds one
// metadata note, of one module's kernels), compiles it and links the
// object into a code object. It reads each kernel's registers and
// private segment into its manifest, and fails a kernel that spills
// (hsaco.Spill, the [xpu-kernel-spill] gate).
func (llvmTarget) codeObject(ctx context.Context, tools *sidecar.Tools, tgt sidecar.Target, group []*schema.Artifact) ([]byte, error) {
	m, err := linkIR(ctx, tools, group)
	if err != nil {
		return nil, err
	}
	obj, err := tools.Object(ctx, m, tgt)
	if err != nil {
		return nil, err
	}
	co, err := tools.CodeObject(ctx, [][]byte{obj})
	if err != nil {
		return nil, err
	}
	o, err := hsaco.Read(co)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range group {
		k, ok := o.Kernel(a.Symbol)
		if !ok {
			return nil, fmt.Errorf("the code object has no kernel %s", a.Symbol)
		}
		a.Registers, a.SpillBytes = k.VGPRs, k.PrivateSegmentBytes
		own := 0
		if a.PrivateBytes != nil {
			own = *a.PrivateBytes
		}
		if err := hsaco.Spill(k, own); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", a.Selector.ISA, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return co, nil
}

// sharedObject compiles each module of group to an object, in parallel,
// and links them into a shared object for the host.
func (llvmTarget) sharedObject(ctx context.Context, tools *sidecar.Tools, tgt sidecar.Target, group []*schema.Artifact) ([]byte, error) {
	objs := make([][]byte, len(group))
	errs := make([]error, len(group))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, a := range group {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			objs[i], errs[i] = tools.Object(ctx, []byte(a.Code), tgt)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s at %s: %w", a.Symbol, a.Selector.ISA, errs[i])
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return tools.Link(ctx, tgt, objs, llvmgen.Libs...)
}

// sidecarTarget is what the sidecar compiles and links for at h.
func sidecarTarget(h llvmgen.Target) sidecar.Target {
	return sidecar.Target{Triple: h.Triple, CPU: h.CPU, Features: h.Features}
}
