// Package codegen is the generator behind `xpu gen`: it loads a kernel
// package with the front end, lowers each kernel, and writes the package's
// generated file (see package emit) next to its sources.
//
// Layering: codegen wires the stages together (frontend -> ir -> lowerings
// -> emit); it adds no language of its own. It knows no runtime.
package codegen

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/golower"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/wgslgen"
)

// Report is what one generation did.
type Report struct {
	Path    string        // the generated file
	Changed bool          // whether the file was written (its contents changed)
	Kernels []string      // the kernels that have code, in module order
	Refused []*ir.Refusal // the template members refused by their requires clause
	Notes   []string      // excused kernels without code for a backend, and demoted gate errors
	// Manifests describe each kernel's code per backend, as the
	// generated file registers them.
	Manifests []emit.Manifest
}

// Generate generates the file of the kernel package in dir. See [Run].
func Generate(dir string) error {
	_, err := Run(dir)
	return err
}

// Run loads the kernel package in dir, lowers every kernel and writes the
// generated file into dir when its contents change. A package that the
// front end refuses, a kernel that the WGSL lowering cannot carry, or a
// kernel left without code for a declared backend and not excused (the
// build gates, see [RuleKernelSkipped] and [ExcusesFile]) fails the
// generation with every such error and writes nothing.
func Run(dir string) (*Report, error) {
	r, src, err := Build(dir)
	if err != nil {
		return nil, err
	}
	r.Changed, err = writeIfChanged(r.Path, src)
	return r, err
}

// Build loads the kernel package in dir and lowers every kernel, as Run
// does, and returns the generated file instead of writing it.
func Build(dir string) (*Report, []byte, error) {
	m, err := load(dir)
	if err != nil {
		return nil, nil, err
	}
	ks, err := lower(m)
	if err != nil {
		return nil, nil, err
	}
	warnings, err := gates(dir, ks)
	if err != nil {
		return nil, nil, err
	}
	src, err := emit.File(m, ks)
	if err != nil {
		return nil, nil, err
	}
	r := &Report{Path: filepath.Join(dir, emit.FileName), Refused: m.Refused}
	for _, k := range m.Kernels {
		r.Kernels = append(r.Kernels, k.Name)
	}
	r.Notes = warnings
	for i := range ks {
		r.Manifests = append(r.Manifests, emit.Manifests(m.Package, &ks[i])...)
	}
	return r, src, nil
}

// lower runs the analyses and every lowering on each kernel of m.
func lower(m *ir.Module) ([]emit.Lowered, error) {
	var errs []error
	ks := make([]emit.Lowered, 0, len(m.Kernels))
	for _, k := range m.Kernels {
		if err := ir.Analyze(k); err != nil {
			errs = append(errs, fmt.Errorf("codegen: kernel %s: %w", k.Name, err))
			continue
		}
		w, fault, err := wgslgen.GenerateFault(k)
		if err != nil {
			errs = append(errs, fmt.Errorf("codegen: kernel %s: WGSL: %w", k.Name, err))
			continue
		}
		// A kernel the Go lowering refuses keeps its other code; the CPU
		// backend refuses it by name.
		l := emit.Lowered{Kernel: k, WGSL: w, Fault: fault, CPUName: emit.CPUFuncName(k.Name)}
		vs, err := wgslgen.Variants(k)
		if err != nil {
			errs = append(errs, fmt.Errorf("codegen: kernel %s: WGSL: %w", k.Name, err))
			continue
		}
		for _, v := range vs {
			l.WaveVariants = append(l.WaveVariants, emit.WaveVariant(v))
		}
		l.CPU, err = golower.Generate(k, l.CPUName)
		switch {
		case errors.Is(err, golower.ErrUnsupported):
			l.CPUName, l.CPURefused = "", err.Error()
		case err != nil:
			errs = append(errs, fmt.Errorf("codegen: kernel %s: Go lowering: %w", k.Name, err))
			continue
		}
		ks = append(ks, l)
	}
	return ks, errors.Join(errs...)
}

// writeIfChanged writes src to path unless the file already holds it, so
// that generating twice changes nothing. It writes through a temporary
// file in the same directory, renamed into place.
func writeIfChanged(path string, src []byte) (bool, error) {
	old, err := os.ReadFile(path)
	if err == nil && bytes.Equal(old, src) {
		return false, nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".xpu_gen-*.go.tmp")
	if err != nil {
		return false, fmt.Errorf("codegen: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(src); err != nil {
		f.Close()
		return false, fmt.Errorf("codegen: writing %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return false, fmt.Errorf("codegen: %w", err)
	}
	if err := f.Close(); err != nil {
		return false, fmt.Errorf("codegen: writing %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return false, fmt.Errorf("codegen: %w", err)
	}
	return true, nil
}
