package codegen

// This file defines a target, one lowering of the IR, and the table of
// targets that codegen lowers every kernel with, the way cmd/compile
// lists its architectures.

import (
	"errors"
	"fmt"
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
	// gates judge; any other error fails the generation.
	Lower(k *ir.Kernel, names *emit.Names) ([]schema.Artifact, error)
}

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
				l.Refused = map[schema.Backend]string{}
			}
			l.Refused[f.Backend] = err.Error()
		case err != nil:
			errs = append(errs, fmt.Errorf("codegen: kernel %s: %s: %w", k.Name, f.Target, err))
		default:
			l.Artifacts = append(l.Artifacts, arts...)
		}
	}
	return l, errors.Join(errs...)
}
