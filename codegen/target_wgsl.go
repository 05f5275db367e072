package codegen

import (
	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/wgslgen"
	"github.com/goxpu/xpu/schema"
)

// wgslTarget is the WGSL lowering, for the webgpu backend: a module per
// wave tier the kernel needs. A kernel it cannot carry fails the
// generation: WGSL runs everywhere the runtime does.
type wgslTarget struct{}

func (wgslTarget) Form() emit.Form {
	return emit.Form{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}
}

func (wgslTarget) Lower(k *ir.Kernel, _ *emit.Names) ([]schema.Artifact, error) {
	return wgslgen.Artifacts(k)
}
