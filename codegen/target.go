package codegen

// This file defines a target, one lowering of the IR, and the table of
// targets that codegen lowers every kernel with, the way cmd/compile
// lists its architectures.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// Target is one lowering of the IR: it lowers a kernel to the artifacts of
// one backend and one form of code, and reports in each artifact's
// manifest the facts of what it built (the wave tier, private bytes,
// native operations, fault use) and in its selector the devices it is
// for. Codegen completes the manifests with the facts of the IR.
type Target interface {
	// Form is the backend that runs the artifacts and the form of their
	// code.
	Form() emit.Form
	// Lower lowers the analyzed kernel k to its artifacts; names are the
	// generated file's, for code that refers to them. A kernel the target
	// cannot carry, through no fault of the kernel, gets an error wrapping
	// ErrNoCode: it then has no code for the backend, which the build
	// gates judge, but the artifacts returned beside it (for the devices
	// it could build for); any other error fails the generation.
	Lower(k *ir.Kernel, names *emit.Names) ([]schema.Artifact, error)
}

// A linker is a target whose artifacts (native ones, schema.Target.Native)
// are built for a whole package at once: once every kernel is lowered,
// Link builds the libraries its artifacts' code lives in, one per
// selector, and returns each library's bytes by its file name
// (emit.LibraryFile). A linker whose tools are absent here returns an
// error wrapping ErrNoTools: its artifacts are then left out, with a note,
// and the generation goes on.
type linker interface {
	Target
	Link(ctx context.Context, arts []*schema.Artifact) (map[string][]byte, error)
}

// ErrNoTools is wrapped by a linker's error when the tools it builds with
// are not installed.
var ErrNoTools = errors.New("the target's tools are not installed")

// ErrNoCode is wrapped by a target's refusal of a kernel it cannot carry.
var ErrNoCode = errors.New("no code for the target")

// refusal is a target's refusal of a kernel: err, with its message, that
// is also ErrNoCode.
type refusal struct{ err error }

func (r refusal) Error() string      { return r.err.Error() }
func (r refusal) Unwrap() error      { return r.err }
func (refusal) Is(target error) bool { return target == ErrNoCode }

// targets are the lowerings, one row per target, in the order of the
// artifacts they add to a kernel's spec. Adding a target is a row here,
// its lowering's package and the driver of its backend.
var targets = []Target{
	wgslTarget{},
	goTarget{},
	llvmHostTarget,
	llvmPTXTarget,
	llvmHSACOTarget,
}

// Backends returns the backends the build declares, those of the targets
// table, in order: a kernel must have code for each.
func Backends() []schema.Backend {
	var bs []schema.Backend
	for _, t := range targets {
		if b := t.Form().Backend; !slices.Contains(bs, b) {
			bs = append(bs, b)
		}
	}
	return bs
}

// forms returns the forms of the targets, in order.
func forms() []emit.Form {
	fs := make([]emit.Form, len(targets))
	for i, t := range targets {
		fs[i] = t.Form()
	}
	return fs
}

// lowerAll runs every target on the analyzed kernel k.
func lowerAll(k *ir.Kernel, names *emit.Names) (emit.Lowered, error) {
	l := emit.Lowered{Kernel: k}
	var errs []error
	for _, t := range targets {
		f := t.Form()
		arts, err := t.Lower(k, names)
		switch {
		case errors.Is(err, ErrNoCode):
			if l.Refused == nil {
				l.Refused = map[emit.Form]string{}
			}
			l.Refused[f] = err.Error()
			l.Artifacts = append(l.Artifacts, arts...) // the machines it did not refuse
		case err != nil:
			errs = append(errs, fmt.Errorf("codegen: kernel %s: %s: %w", k.Name, f.Target, err))
		default:
			l.Artifacts = append(l.Artifacts, arts...)
		}
	}
	return l, errors.Join(errs...)
}

// link runs the linkers of the targets table over the lowered kernels
// ks, returning the libraries by file name, a note for each linker whose
// tools are absent, whose artifacts it removes from ks, and the backends
// left without a target that ran (all theirs lacked tools), which the
// gates do not judge.
func link(ctx context.Context, ks []emit.Lowered) (libs map[string][]byte, notes, untooledWhy []string, ungated []schema.Backend, err error) {
	libs = map[string][]byte{}
	untooled := map[emit.Form]bool{}
	for _, t := range targets {
		l, ok := t.(linker)
		if !ok {
			continue
		}
		f := t.Form()
		var arts []*schema.Artifact
		for i := range ks {
			for j := range ks[i].Artifacts {
				if a := &ks[i].Artifacts[j]; a.Backend == f.Backend && a.Target == f.Target {
					arts = append(arts, a)
				}
			}
		}
		if len(arts) == 0 {
			continue
		}
		files, err := l.Link(ctx, arts)
		if errors.Is(err, ErrNoTools) {
			untooled[f] = true
			why := fmt.Sprintf("no %s code for the %s backend: %v", f.Target, f.Backend, err)
			notes, untooledWhy = append(notes, why), append(untooledWhy, why)
			for i := range ks {
				ks[i].Artifacts = slices.DeleteFunc(ks[i].Artifacts, func(a schema.Artifact) bool {
					return a.Backend == f.Backend && a.Target == f.Target
				})
			}
			continue
		}
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("codegen: %s: %w", f.Target, err)
		}
		for _, a := range arts {
			if _, ok := files[emit.LibraryFile(a)]; !ok {
				return nil, nil, nil, nil, fmt.Errorf("codegen: %s: the link made no %s, which holds %s", f.Target, emit.LibraryFile(a), a.Symbol)
			}
		}
		maps.Copy(libs, files)
	}
	for _, b := range Backends() {
		all := true
		for _, t := range targets {
			all = all && (t.Form().Backend != b || untooled[t.Form()])
		}
		if all {
			ungated = append(ungated, b)
		}
	}
	return libs, notes, untooledWhy, ungated, nil
}
