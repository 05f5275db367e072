package wgslgen

// This file makes a kernel's WGSL artifacts and reports the facts of each
// from the module it built: the builtins it calls, the memory a
// work-item declares, whether it records faults.

import (
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// Artifacts lowers k to its WGSL artifacts for the webgpu backend: one
// for a kernel without waves; for a wave kernel, one per wave tier it
// needs, each with the subgroup sizes it is for (the emulated one, last,
// runs anywhere). Each manifest carries the facts of its module: the wave
// tier, the private bytes, the native operations and the fault word.
func Artifacts(k *ir.Kernel) ([]schema.Artifact, error) {
	if k == nil || k.Body == nil {
		return nil, &Error{Rule: ruleIR, Msg: "kernel without a body"}
	}
	var arts []schema.Artifact
	for _, v := range variants(k) {
		m, err := lower(k, v.tier)
		if err != nil {
			return nil, err
		}
		src, err := print(k, m)
		if err != nil {
			return nil, err
		}
		arts = append(arts, schema.Artifact{
			Manifest: schema.Manifest{
				Backend:      schema.BackendWebGPU,
				Target:       schema.TargetWGSL,
				WaveTier:     v.tier,
				PrivateBytes: new(ir.PrivateBytes(k)),
				Fault:        Faults(m),
				Words:        launchWords(k),
				NativeOps:    nativeOps(m),
			},
			Selector: v.sel,
			Code:     src,
		})
	}
	return arts, nil
}

// print prints m, the module of k.
func print(k *ir.Kernel, m *wgsl.Module) (string, error) {
	s, err := wgsl.Sprint(m)
	if err != nil {
		return "", &Error{Pos: k.Pos, Rule: ruleIR, Msg: err.Error()}
	}
	return s, nil
}

// Faults reports whether m declares the fault word: some operation of
// the kernel records a fault where Go would panic (schema.Manifest.Fault).
func Faults(m *wgsl.Module) bool {
	for _, d := range m.Decls {
		if v, ok := d.(*wgsl.GlobalVar); ok && v.Name == faultVar {
			return true
		}
	}
	return false
}

// nativeOps returns the builtins m calls, sorted: the functions it calls
// that it does not declare, and bitcast.
func nativeOps(m *wgsl.Module) []string {
	declared := map[string]bool{}
	for _, d := range m.Decls {
		if f, ok := d.(*wgsl.Func); ok {
			declared[f.Name] = true
		}
	}
	var ops []string
	see := func(op string) {
		if !declared[op] && !slices.Contains(ops, op) {
			ops = append(ops, op)
		}
	}
	wgsl.Inspect(m, func(n wgsl.Node) bool {
		switch n := n.(type) {
		case *wgsl.Call:
			see(n.Fn)
		case *wgsl.Bitcast:
			see("bitcast")
		}
		return true
	})
	slices.Sort(ops)
	return ops
}
