package llvmgen

import (
	"context"
	"testing"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/llvm"
)

func TestZZSuites(t *testing.T) {
	tl := tools(t)
	for _, dir := range []string{"../../kernels/conformance", "../../kernels/wave", "../../bench/internal/kernels", "../golower/internal/fission"} {
		m, err := frontend.Load(dir, frontend.Generated{File: emit.FileName, Declares: emit.Declares})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range m.Kernels {
			for _, tgt := range Hosts() {
				mod, err := Lower(k, tgt)
				if err != nil {
					t.Logf("%s %s %s: %v", dir, k.Name, tgt.ISA, err)
					continue
				}
				text, _ := llvm.Sprint(mod)
				if _, err := tl.Object(context.Background(), []byte(text), sidecar.Target{Triple: tgt.Triple, CPU: tgt.CPU, Features: tgt.Features}); err != nil {
					t.Errorf("%s %s: %v", k.Name, tgt.ISA, firstLines(err.Error(), 5))
				}
			}
		}
	}
}
