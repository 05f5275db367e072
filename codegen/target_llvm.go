package codegen

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/llvmgen"
	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

// llvmHostTarget is the LLVM lowering for the host, the CPU backend's
// host tier: a kernel lowers to one LLVM module per instruction set level
// of llvmgen.Hosts (its artifact's Code is the module's text, which its
// hash is of), and the link compiles each with the LLVM sidecar and links
// a package's objects of one level into one shared object. A kernel it
// refuses keeps its Go lowering.
type llvmHostTarget struct{}

func (llvmHostTarget) Form() emit.Form {
	return emit.Form{Backend: schema.BackendCPU, Target: schema.TargetLLVMHost}
}

func (llvmHostTarget) Lower(k *ir.Kernel, _ *emit.Names) ([]schema.Artifact, error) {
	var arts []schema.Artifact
	for _, h := range llvmgen.Hosts() {
		m, err := llvmgen.Lower(k, h)
		if errors.Is(err, llvmgen.ErrUnsupported) {
			return nil, refusal{err}
		}
		if err != nil {
			return nil, err
		}
		code, err := llvm.Sprint(m)
		if err != nil {
			return nil, err
		}
		a := schema.Artifact{
			Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetLLVMHost},
			Selector: schema.Selector{ISA: h.ISA},
			Symbol:   schema.HostSymbol(k.Name),
			Code:     code,
		}
		if k.Wave != 0 || ir.UsesWaves(k) {
			// A wave is a chunk of the vector's lanes (native), an aligned
			// part of one (narrow, a declared width dividing the lanes) or
			// several chunks (folded, a multiple of them), at the width
			// the code was lowered for, as on a device whose subgroups
			// are the vector's lanes.
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
	return arts, nil
}

// Link compiles every artifact's module and links those of each level
// into the level's shared object, in the order of arts.
func (llvmHostTarget) Link(ctx context.Context, arts []*schema.Artifact) (map[string][]byte, error) {
	tools, err := sidecar.Find(ctx)
	if errors.Is(err, sidecar.ErrNotFound) {
		return nil, fmt.Errorf("%w: %v", ErrNoTools, err)
	}
	if err != nil {
		return nil, err
	}
	hosts := map[string]llvmgen.Target{}
	for _, h := range llvmgen.Hosts() {
		hosts[h.ISA] = h
	}
	objs := make([][]byte, len(arts))
	errs := make([]error, len(arts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, a := range arts {
		h, ok := hosts[a.Selector.ISA]
		if !ok {
			return nil, fmt.Errorf("codegen: %s: no host target for the ISA %q", a.Symbol, a.Selector.ISA)
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			objs[i], errs[i] = tools.Object(ctx, []byte(a.Code), sidecarTarget(h))
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s at %s: %w", a.Symbol, a.Selector.ISA, errs[i])
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	byFile := map[string][][]byte{}
	fileTarget := map[string]llvmgen.Target{}
	var files []string
	for i, a := range arts {
		f := emit.LibraryFile(a)
		if byFile[f] == nil {
			files = append(files, f)
			fileTarget[f] = hosts[a.Selector.ISA]
		}
		byFile[f] = append(byFile[f], objs[i])
	}
	libs := map[string][]byte{}
	for _, f := range files {
		so, err := tools.Link(ctx, sidecarTarget(fileTarget[f]), byFile[f], llvmgen.Libs...)
		if err != nil {
			return nil, fmt.Errorf("linking %s: %w", f, err)
		}
		libs[f] = so
	}
	return libs, nil
}

// sidecarTarget is what the sidecar compiles and links for at h.
func sidecarTarget(h llvmgen.Target) sidecar.Target {
	return sidecar.Target{Triple: h.Triple, CPU: h.CPU, Features: h.Features}
}
