// Package codegen is the generator behind `xpu gen`: it loads a kernel
// package with the front end, lowers each kernel, and writes the package's
// generated file (see package emit) next to its sources.
//
// Layering: codegen wires the stages together (frontend -> ir -> lowerings
// -> emit); it adds no language of its own. It knows no runtime.
package codegen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// Report is what one generation did.
type Report struct {
	Path    string // the generated file
	Changed bool   // whether the file was written (its contents changed)
	// Empty is set for a package without kernels, which has no generated
	// file; Removed says that Run removed a previous one.
	Empty, Removed bool
	Kernels        []string      // the kernels that have code, in module order
	Refused        []*ir.Refusal // the template members refused by their requires clause
	Notes          []string      // excused kernels without code for a backend, demoted gate errors, absent tools
	// Libraries are the native libraries the file embeds, by file name
	// (in the file's folder): Run writes them beside it.
	Libraries map[string][]byte
	untooled  []string // why each target without its tools built nothing
	// Artifacts are those of each kernel, in the order of its kernels
	// and their artifacts, with their manifests as the generated file
	// registers them.
	Artifacts []schema.Artifact
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
// generation with every such error and writes nothing; so does a
// generated file that would not type-check in the package, which is a bug
// of the generator. A package without
// kernels gets no file: Run removes one that a previous generation wrote.
func Run(dir string) (*Report, error) {
	r, src, err := Build(dir)
	if err != nil {
		return nil, err
	}
	if r.Empty {
		r.Removed, err = removeGenerated(r.Path)
		if err != nil {
			return r, err
		}
		_, err = removeStaleLibraries(dir, nil)
		return r, err
	}
	if err := keepsLibraries(dir, r); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(r.Libraries)) {
		changed, err := writeIfChanged(filepath.Join(dir, name), r.Libraries[name])
		if err != nil {
			return nil, err
		}
		r.Changed = r.Changed || changed
	}
	changed, err := writeIfChanged(r.Path, src)
	if err != nil {
		return nil, err
	}
	removed, err := removeStaleLibraries(dir, r.Libraries)
	r.Changed = r.Changed || changed || removed
	return r, err
}

// Build loads the kernel package in dir and lowers every kernel, as Run
// does, and returns the generated file instead of writing it; for a
// package without kernels (Report.Empty), no file.
func Build(dir string) (*Report, []byte, error) {
	m, err := load(dir)
	if err != nil {
		return nil, nil, err
	}
	if len(m.Kernels) == 0 && len(m.Refused) == 0 {
		return &Report{Path: filepath.Join(dir, emit.FileName), Empty: true}, nil, nil
	}
	ks, err := lower(m)
	if err != nil {
		return nil, nil, err
	}
	libs, notes, untooled, ungated, err := link(context.Background(), ks)
	if err != nil {
		return nil, nil, err
	}
	warnings, err := gates(dir, ks, ungated)
	if err != nil {
		return nil, nil, err
	}
	src, err := emit.File(m, ks)
	if err != nil {
		return nil, nil, err
	}
	libFiles, err := emit.LibraryFiles(m, ks)
	if err != nil {
		return nil, nil, err
	}
	check := maps.Clone(libFiles)
	if check == nil {
		check = map[string][]byte{}
	}
	check[emit.FileName] = src
	if err := frontend.TypeCheck(dir, check); err != nil {
		return nil, nil, fmt.Errorf("codegen: %s: the generated file does not type-check, a bug of the generator (please report it): %w", dir, err)
	}
	if libFiles != nil {
		if libs == nil {
			libs = map[string][]byte{}
		}
		maps.Copy(libs, libFiles)
	}
	r := &Report{Path: filepath.Join(dir, emit.FileName), Refused: m.Refused}
	for _, k := range m.Kernels {
		r.Kernels = append(r.Kernels, k.Name)
	}
	r.Notes = append(notes, warnings...)
	r.Libraries, r.untooled = libs, untooled
	for i := range ks {
		s, err := emit.Spec(m.Package, &ks[i])
		if err != nil {
			return nil, nil, err
		}
		s.CompleteManifests()
		r.Artifacts = append(r.Artifacts, s.Artifacts...)
	}
	return r, src, nil
}

// lower runs the analyses and then every target (the targets table) on
// each kernel of m, with the generated file's names chosen first
// (emit.Plan).
func lower(m *ir.Module) ([]emit.Lowered, error) {
	var errs []error
	for _, k := range m.Kernels {
		if err := ir.Analyze(k); err != nil {
			errs = append(errs, fmt.Errorf("codegen: kernel %s: %w", k.Name, err))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	names, err := emit.Plan(m, forms())
	if err != nil {
		return nil, err
	}
	ks := make([]emit.Lowered, 0, len(m.Kernels))
	for _, k := range m.Kernels {
		l, err := lowerAll(k, names)
		errs = append(errs, err)
		ks = append(ks, l)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return ks, nil
}

// removeGenerated removes the file at path when the generator wrote it,
// and reports whether it did.
func removeGenerated(path string) (bool, error) {
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("codegen: %w", err)
	}
	if !bytes.HasPrefix(old, []byte(emit.Header+"\n")) {
		return false, fmt.Errorf("codegen: %s was not written by xpu gen; the package has no kernels, so remove or rename it", path)
	}
	if err := os.Remove(path); err != nil {
		return false, fmt.Errorf("codegen: %w", err)
	}
	return true, nil
}

// removeStaleLibraries removes the library files in dir that a previous
// generation wrote (named as emit.LibraryFile names them, which
// emit.IsLibraryFile tells) and that libs no longer holds, and reports
// whether it removed any.
func removeStaleLibraries(dir string, libs map[string][]byte) (bool, error) {
	stale, err := staleLibraries(dir, libs)
	for i, name := range stale {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return i > 0, fmt.Errorf("codegen: %w", err)
		}
	}
	return len(stale) > 0, err
}

// keepsLibraries returns an ErrNoTools error when r, generated without
// some target's tools, would remove library files in dir that a previous
// generation built: a refusal, not a note, so that a machine without the
// tools does not quietly strip a package of its native code.
func keepsLibraries(dir string, r *Report) error {
	if len(r.untooled) == 0 {
		return nil
	}
	stale, err := staleLibraries(dir, r.Libraries)
	if err != nil || len(stale) == 0 {
		return err
	}
	return fmt.Errorf("codegen: %s: %s; a previous generation built %s, which generating here would remove: install the tools (scripts/test installs LLVM 19), or remove the files to generate without that code: %w",
		dir, strings.Join(r.untooled, "; "), strings.Join(stale, ", "), ErrNoTools)
}

// staleLibraries returns the library files in dir that a previous
// generation wrote and that libs no longer holds.
func staleLibraries(dir string, libs map[string][]byte) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	var stale []string
	for _, e := range entries {
		name := e.Name()
		if _, ok := libs[name]; ok || !e.Type().IsRegular() || !emit.IsLibraryFile(name) {
			continue
		}
		stale = append(stale, name)
	}
	return stale, nil
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
