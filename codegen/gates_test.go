package codegen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/emit"
)

// lowerCPUSkip lowers the kernels of testdata/cpuskip, whose BreakOut the
// Go lowering refuses.
func lowerCPUSkip(t *testing.T) []emit.Lowered {
	t.Helper()
	m, err := load("testdata/cpuskip")
	if err != nil {
		t.Fatal(err)
	}
	ks, err := lower(m)
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

// excusesIn writes an excuses file into a new directory.
func excusesIn(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ExcusesFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGateSkippedKernel(t *testing.T) {
	_, err := gates(t.TempDir(), lowerCPUSkip(t), nil)
	var g *GateError
	if !errors.As(err, &g) || g.Rule != RuleKernelSkipped || g.Kernel != "BreakOut" || g.Backend != "cpu" {
		t.Fatalf("gates = %v, want [%s] for BreakOut on cpu", err, RuleKernelSkipped)
	}
	if !strings.Contains(err.Error(), "[xpu-kernel-skipped]") || !strings.Contains(err.Error(), "a break out of a loop") {
		t.Errorf("error %q names neither the rule nor the lowering's reason", err)
	}
	if _, _, err := Build("testdata/cpuskip"); err == nil || !strings.Contains(err.Error(), "[xpu-kernel-skipped]") {
		t.Errorf("Build = %v, want the gate's error", err)
	}
}

func TestGateExcused(t *testing.T) {
	dir := excusesIn(t, "# excuses\nBreakOut cpu the Go lowering cannot leave a barrier loop early\n")
	warnings, err := gates(dir, lowerCPUSkip(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "excused: the Go lowering cannot leave") {
		t.Errorf("warnings %q, want the excuse", warnings)
	}
}

func TestGateStaleExcuse(t *testing.T) {
	dir := excusesIn(t, "BreakOut cpu needed\nFill cpu not needed\nGone webgpu no such kernel\n")
	t.Setenv(GatesEnv, "warn") // demotes skipped kernels, never stale excuses
	_, err := gates(dir, lowerCPUSkip(t), nil)
	if err == nil || strings.Count(err.Error(), "["+RuleStaleExcuse+"]") != 2 {
		t.Fatalf("gates = %v, want two stale excuses", err)
	}
	if !strings.Contains(err.Error(), ExcusesFile+":2") || !strings.Contains(err.Error(), "kernel Gone") {
		t.Errorf("error %q does not name the stale lines", err)
	}
}

func TestGateDemotedForASweep(t *testing.T) {
	t.Setenv(GatesEnv, "warn")
	warnings, err := gates(t.TempDir(), lowerCPUSkip(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "warning: ") || !strings.Contains(warnings[0], RuleKernelSkipped) {
		t.Errorf("warnings %q, want the demoted gate", warnings)
	}
}

func TestGateBadExcusesFile(t *testing.T) {
	if _, err := gates(excusesIn(t, "BreakOut metal reason\n"), lowerCPUSkip(t), nil); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("gates = %v, want the malformed line named", err)
	}
}

// TestNoToolsKeepsLibraries checks that a generation without a target's
// tools refuses to remove the libraries a previous one built, and goes on
// where there are none.
func TestNoToolsKeepsLibraries(t *testing.T) {
	dir := t.TempDir()
	r := &Report{untooled: []string{"no llvm-host code for the cpu backend: tools not found"}}
	if err := keepsLibraries(dir, r); err != nil {
		t.Fatalf("no libraries in the folder: %v", err)
	}
	lib := filepath.Join(dir, "xpu_gen_llvm-host_x86-64-v3.so")
	if err := os.WriteFile(lib, []byte("built"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := keepsLibraries(dir, r)
	if !errors.Is(err, ErrNoTools) || !strings.Contains(err.Error(), "xpu_gen_llvm-host_x86-64-v3.so") {
		t.Fatalf("a library the generation would remove: %v, want ErrNoTools naming it", err)
	}
	r.Libraries = map[string][]byte{"xpu_gen_llvm-host_x86-64-v3.so": nil}
	if err := keepsLibraries(dir, r); err != nil {
		t.Errorf("a library the generation writes again: %v", err)
	}
	r.Libraries, r.untooled = nil, nil
	if err := keepsLibraries(dir, r); err != nil {
		t.Errorf("with the tools: %v", err)
	}
}
