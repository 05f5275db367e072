package xpu_test

// This file is the module's dependency policy and the test that keeps it,
// in the style of go/build's deps_test.go: a table of which package may
// import which, checked against what every package of the module imports
// (go list, in each build configuration the module promises: the host
// with and without cgo, and js/wasm).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// depsRules is the policy. A rule "a, b < c, d;" lets c and d import a and
// b and everything a and b may import; a package is named by its path in
// the module ("xpu" for the root package) and must be named on the right
// of a rule after every package its rule names on the left. The standard
// library is free to all except the packages that mark a layer: testing
// (test support), syscall/js (the browser) and C (cgo), which a rule must
// name. Packages of other modules are named by import path, a trailing
// "/..." naming a tree of them. GENERATED stands for every generated
// file of the module, checked file by file; it may import exactly what its
// rule names.
//
// Tests are free: a test may import what it needs to check its package
// (the fuzzer compiles WGSL on the drivers, the runtime's tests launch
// the wave suite's kernels), since nothing links a test.
const depsRules = `
	# The kernel vocabulary: the language kernels are written in and its
	# reference runner, which turns its race check on in test binaries.
	testing < xpu;

	# The WGSL syntax tree and printer; the LLVM IR syntax tree and printer.
	< wgsl, llvm;

	# The data code generation hands the runtime, defined once: backends,
	# targets, wave tiers, parameters, artifacts and their manifests.
	xpu < schema;

	# Code generation: the IR, the front end, the lowerings and the
	# generated-file writer. It knows no runtime, no driver and no kernel
	# package; the IR knows no output language.
	schema < codegen/ir;
	# Loop fission, which the CPU lowerings share.
	codegen/ir < codegen/ir/fission;
	codegen/ir, golang.org/x/tools/go/packages < codegen/frontend;
	codegen/ir, wgsl < codegen/wgslgen;
	codegen/ir < codegen/emit;
	codegen/ir/fission < codegen/golower;
	codegen/ir/fission, llvm < codegen/llvmgen;
	# Running the LLVM tools, which knows no IR of ours.
	< codegen/sidecar;
	# Reading AMDGPU code objects: their ELF and their metadata note.
	github.com/vmihailenco/msgpack/v5 < codegen/hsaco;
	codegen/frontend, codegen/wgslgen, codegen/golower, codegen/llvmgen, codegen/sidecar, codegen/emit, codegen/hsaco < codegen;
	< codegen/internal/gobuild, codegen/fuzz;

	# What a run reports of itself: events, their sinks and a picture of
	# them, below the runtime and the library, which both report to one
	# sink, and xpu trace, which reads and draws it.
	< gpu/trace;
	# The file a recorded launch is written to: the runtime writes it,
	# the corpus replays it.
	< gpu/launchfile;

	# The generator, which every go generate runs: code generation alone,
	# so that it builds without a C toolchain and from kernel sources
	# alone, even while a generated file is missing or stale.
	codegen, gpu/trace < cmd/xpu;

	# The driver contract, and the drivers that implement it. A driver
	# knows neither the runtime nor codegen.
	schema < gpu/driver;
	# The CPU backend loads its host tier's machine code through purego.
	gpu/driver, github.com/klauspost/cpuid/v2, github.com/ebitengine/purego < gpu/cpu;
	gpu/driver < gpu/webgpu/internal/core;
	# wgpu-native's binding, and cgo to hush the Wayland client library
	# it loads.
	gpu/webgpu/internal/core, github.com/cogentcore/webgpu/..., C < gpu/webgpu;
	gpu/webgpu/internal/core, github.com/ebitengine/purego < gpu/webgpu/dawn;
	gpu/webgpu/internal/core, syscall/js < gpu/webgpu/jsgpu;
	# The native GPU drivers' shared driver, which binds no library but
	# calls the functions its drivers bind; the CUDA backend binds the
	# CUDA driver API, the HIP backend the HIP runtime, through purego.
	gpu/driver < gpu/internal/native;
	gpu/internal/native, github.com/ebitengine/purego < gpu/cuda, gpu/hip;
	# The tests both native drivers run alike.
	gpu/driver, testing < gpu/internal/native/nativetest;

	# The driver-contract suite every driver runs, and what the WebGPU
	# drivers give it (their kernels' WGSL, their core's answers).
	gpu/driver, testing < gpu/driver/drivertest;
	gpu/driver/drivertest, gpu/webgpu/internal/core < gpu/webgpu/internal/webgputest;

	# The runtime: the user's API. It registers the drivers and knows no
	# codegen: kernels reach it as the specs generated code registers,
	# through gpu/gpuimpl, whose handles gpu builds by gpu/internal/handle.
	gpu/driver < gpu/internal/handle;
	gpu/internal/handle, gpu/cpu, gpu/cuda, gpu/hip, gpu/webgpu, gpu/webgpu/dawn, gpu/webgpu/jsgpu, gpu/trace, gpu/launchfile < gpu;

	# What generated code alone calls: registration, the Go lowering's
	# helpers, the reference runner's binders; and the program that
	# writes the binders, from the schema's count.
	gpu < gpu/gpuimpl;
	schema < gpu/gpuimpl/internal/bindgen;

	# Generated code imports the kernel vocabulary, the runtime (the
	# handles' and launchers' types) and gpuimpl only.
	xpu, gpu, gpu/gpuimpl < GENERATED;

	# Recorded launches replayed through the reference runner.
	gpu < gpu/corpus;

	# The harness every suite runs: kernels on devices beside the
	# reference runner.
	gpu, gpu/corpus, testing < gpu/gputest;

	# The tuner: families of kernels, the feasibility filter, the measured
	# choice and its store, above the runtime.
	gpu < tune;
	# The body of the program xpu tune writes, which links the packages
	# whose families it tunes.
	tune < tune/tunecmd;

	# Kernel packages: kernels in the kernel language, their generated
	# code and their cases. The two under codegen are the Go lowering's
	# test kernels.
	gpu/gpuimpl < examples/saxpy, bench/internal/kernels,
	      codegen/golower/internal/fission, codegen/golower/internal/lowered;
	gpu/gputest, gpu/gpuimpl < kernels/conformance, kernels/wave;
	# The library's kernels: the kernels import the vocabulary alone,
	# their generated code the runtime, their families the tuner.
	tune, gpu/gpuimpl, gonum.org/v1/gonum/blas < kernels/matmul;
	gpu/gpuimpl, gonum.org/v1/gonum/blas < kernels/blas;
	tune, gpu/gpuimpl < kernels/reduce;
	tune, gpu/gpuimpl < kernels/nn;
	gpu/gpuimpl, kernels/reduce < kernels/sort;
	# The library's cases: each package's kernels beside the reference
	# runner, and their list for programs that check the library outside
	# go test.
	gpu/gputest, kernels/matmul < kernels/matmul/matmultest;
	gpu/gputest, kernels/blas < kernels/blas/blastest;
	gpu/gputest, kernels/reduce < kernels/reduce/reducetest;
	gpu/gputest, kernels/sort < kernels/sort/sorttest;
	gpu/gputest, kernels/nn < kernels/nn/nntest;
	# Host code for the CPU: quantized dot products in assembly behind a
	# pure-Go fallback, below any provider that wires them in.
	# float16 on the host, for the quantized blocks' scales.
	< kernels/internal/f16;
	github.com/klauspost/cpuid/v2, kernels/internal/f16, gonum.org/v1/gonum/blas < kernels/simd;
	# The library's operands, and the registry that picks the kernel for
	# an operation by its operands' descriptors.
	gpu < kernels/tensor;
	kernels/tensor, tune < kernels/dispatch;
	# Library packages whose host entry points take tensors or their
	# formats.
	gpu/gpuimpl, kernels/tensor < kernels/layout;
	gpu/gpuimpl, kernels/tensor, kernels/internal/f16 < kernels/quant;
	# Their cases, and the list of every library package's cases.
	gpu/gputest, kernels/layout < kernels/layout/layouttest;
	gpu/gputest, kernels/quant < kernels/quant/quanttest;
	kernels/matmul/matmultest, kernels/blas/blastest, kernels/reduce/reducetest, kernels/sort/sorttest,
	      kernels/nn/nntest, kernels/quant/quanttest, kernels/layout/layouttest < kernels/librarytest;
	# The library's front: its operations, dispatched over its packages.
	kernels/dispatch, kernels/matmul, kernels/blas, kernels/layout, kernels/nn, kernels/quant, kernels/reduce, kernels/sort, kernels/simd < kernels;
	# Models built from the library's operations.
	kernels, github.com/gpustack/gguf-parser-go < models/llama;
	# The body of the replay programs: the corpus and the kernels every
	# replay links, the library's and the suites'.
	gpu/corpus, kernels, kernels/conformance, kernels/wave < cmd/xpu/replay/replaycmd;
	xpu < codegen/llvmgen/internal/hostkernels;

	# Benchmarks and the programs that print their figures.
	bench/internal/kernels, kernels/conformance, gonum.org/v1/gonum/... < bench/cpubench;
	bench/cpubench < bench/cpubench/cmd/cpubench;
	bench/internal/kernels, kernels/wave, gpu/trace < bench/devicebench;
	< bench, bench/webgpubench, bench/kernelbench;
	tune < bench/tunebench;
	bench/tunebench, kernels/matmul < bench/tunebench/cmd/tunebench;
	# The browser's SGEMM beside tfjs: the page program, and the package
	# whose benchmark (a test) serves it.
	< bench/browserbench;
	kernels/matmul, syscall/js < bench/browserbench/page;

	# Programs that touch devices.
	gpu < cmd/xpu/devices;
	cmd/xpu/replay/replaycmd < cmd/xpu/replay;
	kernels/matmul < examples/tune;
	models/llama < examples/llama;

	# The browser harness: it builds and serves a program, and the demo
	# program runs the suites and the benchmarks on the browser's device.
	< wasm, wasm/devtools;
	wasm < wasm/serve;
	bench/devicebench, kernels/conformance, kernels/librarytest, kernels/matmul, syscall/js < wasm/demo;
`

// module is the module's path.
const module = "github.com/goxpu/xpu"

// gated are the standard packages that a rule must name.
var gated = []string{"testing", "syscall/js", "C"}

// generated is the first line of a generated Go file (go.dev/s/generatedcode).
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// TestDependencies checks every import of every package of the module
// against depsRules.
func TestDependencies(t *testing.T) {
	p, err := parsePolicy(depsRules)
	if err != nil {
		t.Fatalf("depsRules: %v", err)
	}
	g := loadGraph(t)
	for _, name := range slices.Sorted(maps.Keys(g.pkgs)) {
		pk := g.pkgs[name]
		if pk.module() != module {
			continue
		}
		local := pk.name()
		if _, ok := p.allowed[local]; !ok {
			t.Errorf("%s is not in the dependency policy: add a rule to depsRules (deps_test.go) saying what it may import", local)
			continue
		}
		for _, imp := range slices.Sorted(maps.Keys(pk.imports)) {
			if !p.allows(local, imp, g) {
				t.Errorf("%s imports %s, which the policy does not allow: %s may import %s", local, g.display(imp), local, p.says(local))
			}
		}
		for _, f := range pk.generatedFiles() {
			for _, imp := range fileImports(t, filepath.Join(pk.Dir, f)) {
				if !p.allows("GENERATED", imp, g) {
					t.Errorf("%s, a generated file, imports %s: generated code may import %s", filepath.Join(local, f), g.display(imp), p.says("GENERATED"))
				}
			}
		}
	}
	for name := range p.allowed {
		if name != "GENERATED" && g.pkgs[module+"/"+name] == nil && !(name == "xpu" && g.pkgs[module] != nil) {
			t.Errorf("depsRules names %s, which is no package of the module: remove its rule", name)
		}
	}
}

// TestGeneratorLinks checks what the generator links: code generation,
// the schema it writes (with the kernel vocabulary's Dim3, which the
// schema names), gpu/trace (the standard library's alone, for xpu trace),
// the standard library's and x/tools' packages, and
// nothing of the runtime, no driver, no cgo, no purego and no package holding generated
// code, whose staleness would stop it from building.
func TestGeneratorLinks(t *testing.T) {
	g := loadGraph(t)
	said := map[string]bool{} // of the packages of other modules, one finding per kind
	say := func(kind, msg string) {
		if !said[kind] {
			said[kind] = true
			t.Error(msg)
		}
	}
	for _, name := range g.closure(module + "/cmd/xpu") {
		pk := g.pkgs[name]
		switch local := pk.name(); {
		case pk.module() == module && !(local == "cmd/xpu" || local == "wgsl" || local == "llvm" || local == "schema" || local == "xpu" ||
			local == "codegen" || strings.HasPrefix(local, "codegen/") || local == "gpu/trace"):
			t.Errorf("cmd/xpu links %s: the generator links code generation only", local)
		case pk.module() == module && len(pk.generatedFiles()) > 0:
			t.Errorf("cmd/xpu links %s, which holds generated code", local)
		case len(pk.CgoFiles) > 0 || pk.imports["C"]:
			say("cgo", fmt.Sprintf("cmd/xpu links %s, which uses cgo", local))
		case strings.HasPrefix(name, "github.com/ebitengine/purego"):
			say("purego", fmt.Sprintf("cmd/xpu links %s, the Dawn driver's binding", name))
		case strings.HasPrefix(name, "github.com/cogentcore/webgpu"):
			say("wgpu", fmt.Sprintf("cmd/xpu links %s, the wgpu-native driver's binding", name))
		}
	}
}

// TestNoFolderCycles checks that the folders of the module form layers:
// where a package imports a package of a sibling folder (or of a
// folder below a sibling), the sibling folders' packages never import
// the other way. A folder may import its own subfolders and they it.
func TestNoFolderCycles(t *testing.T) {
	g := loadGraph(t)
	edges := map[[2]string]string{} // folder -> folder: one import that makes it
	for _, name := range slices.Sorted(maps.Keys(g.pkgs)) {
		pk := g.pkgs[name]
		if pk.module() != module {
			continue
		}
		for imp := range pk.imports {
			if q := g.pkgs[imp]; q != nil && q.module() == module {
				if a, b, ok := siblings(pk.dir(), q.dir()); ok {
					if _, seen := edges[[2]string{a, b}]; !seen {
						edges[[2]string{a, b}] = pk.name() + " imports " + q.name()
					}
				}
			}
		}
	}
	reported := map[string]bool{}
	for _, e := range slices.SortedFunc(maps.Keys(edges), compareEdges) {
		back := folderPath(edges, e[1], e[0])
		if back == nil {
			continue
		}
		cycle := append([]string{e[0]}, back...) // e[0] -> e[1] -> ... -> e[0]
		key := slices.Sorted(slices.Values(cycle[1:]))
		if reported[strings.Join(key, " ")] {
			continue
		}
		reported[strings.Join(key, " ")] = true
		var why []string
		for i := range cycle[:len(cycle)-1] {
			why = append(why, edges[[2]string{cycle[i], cycle[i+1]}])
		}
		t.Errorf("folder cycle %s: %s", strings.Join(cycle, " -> "), strings.Join(why, "; "))
	}
}

// compareEdges orders folder edges.
func compareEdges(x, y [2]string) int {
	if c := strings.Compare(x[0], y[0]); c != 0 {
		return c
	}
	return strings.Compare(x[1], y[1])
}

// siblings returns, for an import from a package in folder p of one in
// folder q, the two sibling folders under their nearest common folder
// that hold p and q; ok is false when one folder holds the other.
func siblings(p, q string) (a, b string, ok bool) {
	ps, qs := strings.Split(p, "/"), strings.Split(q, "/")
	if p == "" || q == "" {
		return "", "", false
	}
	i := 0
	for i < len(ps) && i < len(qs) && ps[i] == qs[i] {
		i++
	}
	if i == len(ps) || i == len(qs) {
		return "", "", false
	}
	return strings.Join(ps[:i+1], "/"), strings.Join(qs[:i+1], "/"), true
}

// folderPath returns a path of folder edges from a to b, or nil.
func folderPath(edges map[[2]string]string, a, b string) []string {
	prev := map[string]string{a: ""}
	queue := []string{a}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if f == b {
			path := []string{b}
			for f != a {
				f = prev[f]
				path = append([]string{f}, path...)
			}
			return path
		}
		for _, e := range slices.SortedFunc(maps.Keys(edges), compareEdges) {
			if _, seen := prev[e[1]]; e[0] == f && !seen {
				prev[e[1]] = f
				queue = append(queue, e[1])
			}
		}
	}
	return nil
}

// policy is depsRules parsed: for each package (and GENERATED), the
// names it may import, closed over the rules.
type policy struct {
	allowed map[string]map[string]bool
}

// parsePolicy parses rules.
func parsePolicy(rules string) (*policy, error) {
	p := &policy{allowed: map[string]map[string]bool{}}
	var text strings.Builder
	for line := range strings.Lines(rules) {
		line, _, _ = strings.Cut(line, "#")
		text.WriteString(line)
	}
	for _, rule := range strings.Split(text.String(), ";") {
		if strings.TrimSpace(rule) == "" {
			continue
		}
		lhs, rhs, ok := strings.Cut(rule, "<")
		if !ok {
			return nil, fmt.Errorf("rule %q has no <", strings.TrimSpace(rule))
		}
		froms, tos := names(lhs), names(rhs)
		if len(tos) == 0 {
			return nil, fmt.Errorf("rule %q names no package on the right", strings.TrimSpace(rule))
		}
		may := map[string]bool{}
		for _, f := range froms {
			may[f] = true
			if isLocal(f) && !slices.Equal(tos, []string{"GENERATED"}) {
				a, ok := p.allowed[f]
				if !ok {
					return nil, fmt.Errorf("%s is used before its rule", f)
				}
				maps.Copy(may, a)
			}
		}
		for _, to := range tos {
			if _, dup := p.allowed[to]; dup {
				return nil, fmt.Errorf("%s has two rules", to)
			}
			p.allowed[to] = may
		}
	}
	return p, nil
}

// names splits a side of a rule into its names.
func names(s string) []string {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// isLocal reports whether the policy name n is a package of the module
// (a path without a dot in its first element, and no gated standard
// package).
func isLocal(n string) bool {
	first, _, _ := strings.Cut(n, "/")
	return !strings.Contains(first, ".") && !slices.Contains(gated, n)
}

// allows reports whether the package named local may import imp (an
// import path).
func (p *policy) allows(local, imp string, g *graph) bool {
	may := p.allowed[local]
	q := g.pkgs[imp]
	switch {
	case slices.Contains(gated, imp):
		return may[imp]
	case q != nil && q.Standard:
		return true
	case q != nil && q.module() == module:
		return may[q.name()]
	}
	for n := range may {
		if tree, ok := strings.CutSuffix(n, "/..."); ok && (imp == tree || strings.HasPrefix(imp, tree+"/")) || n == imp {
			return true
		}
	}
	return false
}

// says lists what the package named local may import.
func (p *policy) says(local string) string {
	if len(p.allowed[local]) == 0 {
		return "the standard library only"
	}
	return strings.Join(slices.Sorted(maps.Keys(p.allowed[local])), ", ") + " and the standard library"
}

// pkg is one package as go list reports it, its imports merged over the
// build configurations.
type pkg struct {
	ImportPath string
	Dir        string
	Standard   bool
	Imports    []string
	GoFiles    []string
	CgoFiles   []string
	Module     *struct{ Path string }

	imports map[string]bool
	files   map[string]bool
}

// module returns the path of the module that holds the package, or "".
func (p *pkg) module() string {
	if p.Module == nil {
		return ""
	}
	return p.Module.Path
}

// name returns the package's name in the policy: its path in the module,
// "xpu" for the root; other packages by import path.
func (p *pkg) name() string {
	if p.ImportPath == module {
		return "xpu"
	}
	if r, ok := strings.CutPrefix(p.ImportPath, module+"/"); ok {
		return r
	}
	return p.ImportPath
}

// dir returns the package's folder in the module, "" for the root.
func (p *pkg) dir() string {
	if p.ImportPath == module {
		return ""
	}
	return p.name()
}

// generatedFiles returns the package's generated files, sorted.
func (p *pkg) generatedFiles() []string {
	var out []string
	for _, f := range slices.Sorted(maps.Keys(p.files)) {
		if isGenerated(filepath.Join(p.Dir, f)) {
			out = append(out, f)
		}
	}
	return out
}

// isGenerated reports whether the Go file path is generated: its
// comment before the package clause says so.
func isGenerated(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	head, _, _ := bytes.Cut(data, []byte("\npackage "))
	return generated.Match(head)
}

// fileImports returns the import paths of the Go file path.
func fileImports(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, spec := range f.Imports {
		imp, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, imp)
	}
	return out
}

// graph is the packages of the module and all they link, over the build
// configurations.
type graph struct {
	pkgs map[string]*pkg
}

// display names the import path imp as the policy does.
func (g *graph) display(imp string) string {
	if q := g.pkgs[imp]; q != nil {
		return q.name()
	}
	return imp
}

// closure returns the packages root links, itself included, sorted.
func (g *graph) closure(root string) []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(n string) {
		if seen[n] || g.pkgs[n] == nil {
			return
		}
		seen[n] = true
		for imp := range g.pkgs[n].imports {
			visit(imp)
		}
	}
	visit(root)
	return slices.Sorted(maps.Keys(seen))
}

// configs are the build configurations the module promises to build in.
var configs = [][]string{
	nil,
	{"CGO_ENABLED=0"},
	{"GOOS=js", "GOARCH=wasm"},
}

// loadGraph returns the module's packages and their dependencies, listed
// once per test binary.
func loadGraph(t *testing.T) *graph {
	t.Helper()
	if testing.Short() {
		t.Skip("lists every package of the module in three configurations")
	}
	g, err := listGraph()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// listGraph lists the module's packages and their dependencies in every
// configuration and merges what each imports.
var listGraph = sync.OnceValues(func() (*graph, error) {
	g := &graph{pkgs: map[string]*pkg{}}
	for _, env := range configs {
		cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Dir,Standard,Imports,GoFiles,CgoFiles,Module", "./...")
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("%s go list: %v\n%s", strings.Join(env, " "), err, stderr.Bytes())
		}
		for dec := json.NewDecoder(bytes.NewReader(out)); ; {
			var p pkg
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				return nil, fmt.Errorf("go list: %v", err)
			}
			q := g.pkgs[p.ImportPath]
			if q == nil {
				q = &p
				q.imports, q.files = map[string]bool{}, map[string]bool{}
				g.pkgs[p.ImportPath] = q
			}
			q.CgoFiles = append(q.CgoFiles, p.CgoFiles...)
			for _, imp := range p.Imports {
				q.imports[imp] = true
			}
			for _, f := range append(p.GoFiles, p.CgoFiles...) {
				q.files[f] = true
			}
		}
	}
	return g, nil
})
