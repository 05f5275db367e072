package dispatch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/tune"
)

// An Op is an operation the registry dispatches: its name and its
// operands' names, the outputs first.
type Op struct {
	Name     string   // "matmul", "matvec", ...
	Operands []string // e.g. {"c", "a", "b"}
	Outputs  int      // how many of the operands, from the first, are written
	// Check, if set, is the operation's rule for its operands whatever
	// kernel runs it (shapes that agree): nil, or an error naming the
	// rule broken, which a lookup returns before it selects.
	Check func(ts []tensor.Tensor, params any) error
	// Reference runs the operation on the host, for any operands it can
	// read: the fallback when no kernel matches. Nil: the operation has
	// none, and an unmatched lookup is refused.
	Reference func(c *Call, ts []tensor.Tensor) error
}

// A Call is what a kernel's Run is given beside its operands.
type Call struct {
	Stream *gpu.Stream
	Tuner  *tune.Tuner // the registry's; nil is tune.Default()
	Params any         // the operation's parameters, as its front defines them; nil for none
	Scope  *Scope      // the caller's, for temporaries; may be nil
}

// A Priority orders the kernels that take the same operands: the
// highest runs.
type Priority int

// The priorities of the library's providers.
const (
	// Portable: generated kernels in the kernel language, on every
	// backend.
	Portable Priority = 100
	// SIMD: host code for a CPU's vector units, chosen by cpuid.
	SIMD Priority = 200
	// Native: code written for one device family.
	Native Priority = 300
)

// A Kernel is one provider's implementation of an operation for one
// combination of operand descriptors.
type Kernel struct {
	Name     string              // who runs it: "kernels/matmul.Sgemm"
	Op       string              // the operation
	Operands []tensor.Descriptor // one per operand of the operation, in its order
	Backends []schema.Backend    // the backends it runs on; none: every backend
	Priority Priority
	// Accept, if set, says whether the kernel takes operands its
	// descriptors match (a rank, a shape limit, a unit stride): nil, or
	// the rule they break, which the lookup's explanation reports.
	Accept func(d *gpu.Device, ts []tensor.Tensor, params any) error
	// Run records the kernel's launches on c.Stream without syncing.
	Run func(c *Call, ts []tensor.Tensor) error
}

// runsOn reports whether the kernel (or adapter) of backends runs on b.
func runsOn(backends []schema.Backend, b schema.Backend) bool {
	return len(backends) == 0 || slices.Contains(backends, b)
}

// backendsOf names the backends a kernel or adapter of backends runs on.
func backendsOf(backends []schema.Backend) string {
	if len(backends) == 0 {
		return "every backend"
	}
	bs := make([]string, len(backends))
	for i, b := range backends {
		bs[i] = string(b)
	}
	return strings.Join(bs, ", ")
}

// signature formats descriptors as a key does: "(f32/contiguous, ...)".
func signature(ds []tensor.Descriptor) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// check returns what is wrong with k for the operations ops.
func (k *Kernel) check(ops map[string]*Op) error {
	if k.Name == "" || k.Run == nil {
		return fmt.Errorf("dispatch: a kernel for %q needs a Name and a Run: %w", k.Op, gpu.ErrArgs)
	}
	op := ops[k.Op]
	if op == nil {
		return fmt.Errorf("dispatch: kernel %s: no operation %q is defined: %w", k.Name, k.Op, gpu.ErrArgs)
	}
	if len(k.Operands) != len(op.Operands) {
		return fmt.Errorf("dispatch: kernel %s: %d operand descriptors for %s, which has %d (%s): %w", k.Name, len(k.Operands), op.Name, len(op.Operands), strings.Join(op.Operands, ", "), gpu.ErrArgs)
	}
	for i, d := range k.Operands {
		if !d.Valid() {
			return fmt.Errorf("dispatch: kernel %s: operand %s: %s is no format and layout a tensor has: %w", k.Name, op.Operands[i], d, gpu.ErrArgs)
		}
	}
	return nil
}

// An AdapterKind says when an adapter may run inside a call.
type AdapterKind uint8

const (
	// PerCall converts an operand that is new each call, an activation:
	// requantized, or made dense. It runs inside the call, its output a
	// temporary of the caller's scope.
	PerCall AdapterKind = iota + 1
	// AtLoad converts a weight, the same operand call after call: packed
	// into another layout, or dequantized. Done per call it repeats work
	// a load does once, so a lookup inserts it only where the registry
	// allows that ([Registry.PackPerCall]); otherwise the refusal names
	// [Registry.Convert], which converts once.
	AtLoad
)

func (k AdapterKind) String() string {
	switch k {
	case PerCall:
		return "per call"
	case AtLoad:
		return "at load"
	}
	return fmt.Sprintf("AdapterKind(%d)", uint8(k))
}

// An Adapter converts a tensor of one descriptor into a tensor of
// another of the same shape: a requantization, a dequantization, a
// repacking of blocks.
type Adapter struct {
	Name     string // "kernels/quant.Dequantize"
	From, To tensor.Descriptor
	Kind     AdapterKind
	Backends []schema.Backend // none: every backend
	// Run records the conversion of src into dst, a tensor of To of
	// src's shape, on c.Stream.
	Run func(c *Call, dst, src tensor.Tensor) error
}

func (a *Adapter) check() error {
	if a.Name == "" || a.Run == nil {
		return fmt.Errorf("dispatch: an adapter %s -> %s needs a Name and a Run: %w", a.From, a.To, gpu.ErrArgs)
	}
	if !a.From.Valid() || !a.To.Valid() || a.From == a.To {
		return fmt.Errorf("dispatch: adapter %s: %s -> %s converts no tensor: %w", a.Name, a.From, a.To, gpu.ErrArgs)
	}
	if a.Kind != PerCall && a.Kind != AtLoad {
		return fmt.Errorf("dispatch: adapter %s: kind %s: %w", a.Name, a.Kind, gpu.ErrArgs)
	}
	return nil
}
