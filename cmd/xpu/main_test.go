package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/schema"
)

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{nil, 2, "usage: xpu"},
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"gen", "extra"}, 2, "gen takes no arguments"},
		{[]string{"devices", "extra"}, 2, "xpu devices: takes no arguments"},
		{[]string{"tune"}, 2, "xpu tune: usage: xpu tune"},
		{[]string{"trace"}, 2, "usage: xpu trace"},
		{[]string{"trace", "no-such-file.json"}, 1, "no-such-file.json"},
		{[]string{"help"}, 0, "usage: xpu"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != c.code {
			t.Errorf("xpu %v: exit %d, want %d", c.args, code, c.code)
		}
		if !strings.Contains(stderr.String(), c.say) {
			t.Errorf("xpu %v: stderr %q does not say %q", c.args, stderr.String(), c.say)
		}
		if stdout.Len() != 0 {
			t.Errorf("xpu %v: wrote to stdout: %q", c.args, stdout.String())
		}
	}
}

func TestGenNotesRefusedMembers(t *testing.T) {
	t.Chdir("testdata/scale")
	t.Cleanup(func() { // the test's output, not files of the tree
		for _, name := range emit.GeneratedFiles {
			os.Remove(name)
		}
	})
	var stdout, stderr bytes.Buffer
	if code := run([]string{"gen"}, &stdout, &stderr); code != 0 {
		t.Fatalf("xpu gen: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "Negate refused") || !strings.Contains(stderr.String(), "c.Factor > 0") {
		t.Errorf("xpu gen: stderr %q does not note Negate and its clause", stderr.String())
	}
}

// TestGenNotesNoKernels runs gen in a package without kernels: it writes
// nothing and says so.
func TestGenNotesNoKernels(t *testing.T) {
	t.Chdir("../../codegen/testdata/nokernels")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"gen"}, &stdout, &stderr); code != 0 {
		t.Fatalf("xpu gen: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "no kernels") {
		t.Errorf("xpu gen: stderr %q does not say the package has no kernels", stderr.String())
	}
	if _, err := os.Stat("xpu_gen.go"); !os.IsNotExist(err) {
		os.Remove("xpu_gen.go")
		t.Errorf("xpu gen wrote a file for a package without kernels (stat: %v)", err)
	}
}

func TestGenFailsOnRefusedPackage(t *testing.T) {
	t.Chdir("../../codegen/testdata/nomap")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"gen"}, &stdout, &stderr); code != 1 {
		t.Errorf("xpu gen on a refused package: exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), "[xpu-no-map]") {
		t.Errorf("xpu gen: stderr %q does not name the rule", stderr.String())
	}
}

// TestManifestPrintsAccessAndFootprint prints the manifests of a kernel
// whose buffers' lengths are declared: per backend, its target, hash,
// block, bindings and each buffer's access and least length.
func TestManifestPrintsAccessAndFootprint(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"manifest", "./testdata/footprint.Saxpy"}, &stdout, &stderr); code != 0 {
		t.Fatalf("xpu manifest: exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"on webgpu:", "on cpu:", "block  ", "256x1x1", "storage bindings", "buffer y", "read-write, len >= n", "buffer x", "read", "sha256:", "xpu-gen/"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("manifest output lacks %q:\n%s", want, stdout.String())
		}
	}
	if strings.Contains(stdout.String(), "registers") || strings.Contains(stdout.String(), "spill") {
		t.Errorf("manifest prints facts no target reports:\n%s", stdout.String())
	}
}

// TestManifestPrintsProductBounds prints a manifest whose buffers are
// bounded by a product of scalars, by one scalar and not at all.
func TestManifestPrintsProductBounds(t *testing.T) {
	var out bytes.Buffer
	printManifest(&out, schema.Manifest{Kernel: "k.MatMul", Backend: schema.BackendCPU, Buffers: []schema.Usage{
		{Name: "A", Access: schema.AccessRead, MinLen: []string{"m", "k"}},
		{Name: "y", Access: schema.AccessWrite, MinLen: []string{"n"}},
		{Name: "free", Access: schema.AccessRead},
	}}, schema.Selector{})
	rows := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		if name, v, ok := strings.Cut(strings.TrimSpace(line), "  "); ok {
			rows[name] = strings.TrimSpace(v)
		}
	}
	for name, want := range map[string]string{"buffer A": "read, len >= m*k", "buffer y": "write, len >= n", "buffer free": "read"} {
		if rows[name] != want {
			t.Errorf("row %q = %q, want %q:\n%s", name, rows[name], want, out.String())
		}
	}
}

// TestManifestPrintsWaveVariants prints a wave kernel whose WGSL comes in
// an artifact per tier: each with its tier, subgroup sizes and width.
func TestManifestPrintsWaveVariants(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"manifest", "github.com/goxpu/xpu/kernels/wave.ReduceWave32"}, &stdout, &stderr); code != 0 {
		t.Fatalf("xpu manifest: exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"wave tier", "native", "subgroups of 32 to 32 lanes, width 32",
		"folded", "subgroups of 4 to 16 lanes", "narrow", "emulated", "any device, width 32"} {
		if !strings.Contains(out, want) {
			t.Errorf("manifest output lacks %q:\n%s", want, out)
		}
	}
}

func TestManifestRefusesUnknownKernels(t *testing.T) {
	for _, c := range []struct {
		arg  string
		code int
	}{
		{"./testdata/footprint.NoSuchKernel", 1},
		{"github.com/goxpu/xpu/no/such/package.K", 1},
		{"nokernel", 2},
	} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"manifest", c.arg}, &stdout, &stderr); code != c.code {
			t.Errorf("xpu manifest %s: exit %d, want %d: %s", c.arg, code, c.code, stderr.String())
		}
	}
}
