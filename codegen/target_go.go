package codegen

import (
	"errors"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/golower"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// goTarget is the Go lowering, for the cpu backend: one block function
// per kernel. A kernel it refuses keeps its other code, and the CPU
// backend refuses it by name.
type goTarget struct{}

func (goTarget) Form() emit.Form {
	return emit.Form{Backend: schema.BackendCPU, Target: schema.TargetGo}
}

func (t goTarget) Lower(k *ir.Kernel, names *emit.Names) ([]schema.Artifact, error) {
	a := schema.Artifact{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}}
	fn := names.Code(k.Name, &a)
	a, err := golower.Artifact(k, fn, golower.Imports{XPU: names.XPU, GPUImpl: names.GPUImpl})
	if errors.Is(err, golower.ErrUnsupported) {
		return nil, refusal{err}
	}
	if err != nil {
		return nil, err
	}
	return []schema.Artifact{a}, nil
}
