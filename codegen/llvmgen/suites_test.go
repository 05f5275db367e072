package llvmgen

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/llvm"
)

// TestSuites lowers every kernel of the project's suites for every
// target: each lowers, and for the host compiles through opt and llc, or
// is refused by name (running them is the conformance suite's work, on
// the CPU driver's host tier). The GPU targets' modules are compiled by
// every generation of the suites' packages, which the drift check runs;
// where it has run (emit.CheckedEnv), so were the host's, and the test
// only lowers.
func TestSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every suite kernel")
	}
	compile := os.Getenv(emit.CheckedEnv) == ""
	var tl *sidecar.Tools
	if compile {
		tl = tools(t)
	}
	for _, dir := range []string{"../../kernels/conformance", "../../kernels/wave", "../../bench/internal/kernels", "../golower/internal/fission"} {
		m, err := frontend.Load(dir, frontend.Generated{Files: emit.GeneratedFiles, Declares: emit.Declares})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range m.Kernels {
			for _, tgt := range append(Hosts(), append(PTX(), HSACO()...)...) {
				mod, err := Lower(k, tgt)
				if err != nil {
					if !errors.Is(err, ErrUnsupported) {
						t.Errorf("%s %s: %v does not wrap ErrUnsupported", k.Name, tgt.ISA, err)
					}
					t.Logf("%s: %v", tgt.ISA, err)
					continue
				}
				text, err := llvm.Sprint(mod)
				if err != nil {
					t.Fatal(err)
				}
				if tgt.Arch != ArchHost || !compile {
					continue
				}
				if _, err := tl.Object(context.Background(), []byte(text), sidecar.Target{Triple: tgt.Triple, CPU: tgt.CPU, Features: tgt.Features}); err != nil {
					t.Errorf("%s %s: %v", k.Name, tgt.ISA, firstLines(err.Error(), 5))
				}
			}
		}
	}
}
