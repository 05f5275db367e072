package dispatch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/schema"
)

// ErrNoKernel is wrapped by the refusal of a call that no kernel takes,
// directly or after an adapter, and that no reference stands in for.
var ErrNoKernel = errors.New("no kernel takes the operands")

// A Key is what a lookup selects by: the operation, its operands'
// descriptors and the device's backend.
type Key struct {
	Op       string
	Operands string // the descriptors: "(f32/contiguous, q8_0/blocked-row-major)"
	Backend  schema.Backend
}

// String returns "matvec(f32/contiguous, ...) on webgpu".
func (k Key) String() string { return k.Op + k.Operands + " on " + string(k.Backend) }

// A Plan is how a call runs: a kernel, perhaps after an adapter converts
// one of its inputs, or the operation's reference.
type Plan struct {
	Key      Key
	Kernel   *Kernel  // nil for a fallback
	Adapter  *Adapter // the adapter inserted before Kernel, or nil
	Operand  int      // the operand Adapter converts
	Fallback bool     // no kernel matched: the reference runs
	// Why lists the kernels and adapters the lookup considered and
	// passed over, each with its reason.
	Why []string

	op *Op
}

// Detail explains the plan in a sentence, then what was passed over.
func (p *Plan) Detail() string {
	var b strings.Builder
	switch {
	case p.Fallback:
		fmt.Fprintf(&b, "no kernel takes %s; its host reference runs", p.Key)
	case p.Adapter != nil:
		fmt.Fprintf(&b, "%s runs %s after %s (%s) converts operand %s from %s to %s", p.Key, p.Kernel.Name, p.Adapter.Name, p.Adapter.Kind, p.op.Operands[p.Operand], p.Adapter.From, p.Adapter.To)
	default:
		fmt.Fprintf(&b, "%s runs %s", p.Key, p.Kernel.Name)
	}
	if len(p.Why) > 0 {
		fmt.Fprintf(&b, " (passed over: %s)", strings.Join(p.Why, "; "))
	}
	return b.String()
}

// A NoKernelError is the refusal of a call no kernel takes. It wraps
// [ErrNoKernel].
type NoKernelError struct {
	Key        Key
	Registered []string // what is registered for the operation: signatures and kernels
	Why        []string // what was passed over and why
}

func (e *NoKernelError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "dispatch: no kernel takes %s", e.Key)
	if len(e.Why) > 0 {
		fmt.Fprintf(&b, "; passed over: %s", strings.Join(e.Why, "; "))
	}
	if len(e.Registered) == 0 {
		b.WriteString("; none is registered for " + e.Key.Op)
	} else {
		fmt.Fprintf(&b, "; registered for %s: %s", e.Key.Op, strings.Join(e.Registered, "; "))
	}
	return b.String()
}

func (e *NoKernelError) Unwrap() error { return ErrNoKernel }

// Lookup returns the plan a call of the operation op on operands ts on
// device d runs, which [Registry.Run] would follow; params are the
// operation's, as its front defines them. It is an error wrapping
// gpu.ErrArgs for an undefined operation, a wrong number of operands or
// a zero tensor, gpu.ErrForeignBuffer for an operand of another device,
// the operation's Check's error for operands it does not take, and a
// [*NoKernelError] when nothing takes the operands and no
// reference stands in.
func (r *Registry) Lookup(d *gpu.Device, op string, params any, ts ...tensor.Tensor) (*Plan, error) {
	if err := r.install(); err != nil {
		return nil, err
	}
	o := r.ops[op]
	if o == nil {
		return nil, fmt.Errorf("dispatch: no operation %q is defined: %w", op, gpu.ErrArgs)
	}
	if len(ts) != len(o.Operands) {
		return nil, fmt.Errorf("dispatch: %s takes %d operands (%s), not %d: %w", op, len(o.Operands), strings.Join(o.Operands, ", "), len(ts), gpu.ErrArgs)
	}
	descs := make([]tensor.Descriptor, len(ts))
	for i, t := range ts {
		if t.IsZero() {
			return nil, fmt.Errorf("dispatch: %s: operand %s is the zero Tensor: %w", op, o.Operands[i], gpu.ErrArgs)
		}
		if t.Device() != d {
			return nil, fmt.Errorf("dispatch: %s: operand %s is of another device than the call's: %w", op, o.Operands[i], gpu.ErrForeignBuffer)
		}
		descs[i] = t.Descriptor()
	}
	if o.Check != nil {
		if err := o.Check(ts, params); err != nil {
			return nil, err
		}
	}
	p := &Plan{Key: Key{Op: op, Operands: signature(descs), Backend: d.Backend()}, op: o}
	if k := r.pick(p, d, descs, ts, params); k != nil {
		p.Kernel = k
		return p, nil
	}
	r.adapt(p, d, descs, ts, params)
	if p.Kernel != nil {
		return p, nil
	}
	if o.Reference != nil && !r.NoFallback {
		p.Fallback = true
		return p, nil
	}
	return nil, &NoKernelError{Key: p.Key, Registered: r.registered(o), Why: p.Why}
}

// pick returns the kernel of the highest priority that matches descs
// exactly on d and accepts ts, the first registered among equals,
// adding the rules of those that did not accept to p.Why.
func (r *Registry) pick(p *Plan, d *gpu.Device, descs []tensor.Descriptor, ts []tensor.Tensor, params any) *Kernel {
	var cs []*Kernel
	for _, k := range r.kernels {
		if k.Op == p.Key.Op && slices.Equal(k.Operands, descs) && runsOn(k.Backends, d.Backend()) {
			cs = append(cs, k)
		}
	}
	slices.SortStableFunc(cs, func(a, b *Kernel) int { return int(b.Priority - a.Priority) })
	for _, k := range cs {
		if k.Accept == nil {
			return k
		}
		err := k.Accept(d, ts, params)
		if err == nil {
			return k
		}
		p.Why = append(p.Why, fmt.Sprintf("%s: %v", k.Name, err))
	}
	return nil
}

// adapt looks for a kernel that takes the operands after one adapter
// converts one input, and sets p's kernel and adapter to the one of the
// highest kernel priority, a per-call adapter before one meant for load
// among equals. An adapter meant for load is passed over, with its
// reason, unless the registry packs per call. A kernel's Accept sees the
// adapted operand as the temporary it would be: tensor.Describe of its
// descriptor and shape.
func (r *Registry) adapt(p *Plan, d *gpu.Device, descs []tensor.Descriptor, ts []tensor.Tensor, params any) {
	best := func(k *Kernel, a *Adapter) bool {
		return p.Kernel == nil || k.Priority > p.Kernel.Priority || k.Priority == p.Kernel.Priority && a.Kind < p.Adapter.Kind
	}
	for i := p.op.Outputs; i < len(descs); i++ {
		for _, a := range r.adapters {
			if a.From != descs[i] || !runsOn(a.Backends, d.Backend()) {
				continue
			}
			alt := slices.Clone(descs)
			alt[i] = a.To
			ats := slices.Clone(ts)
			ats[i] = tensor.Describe(a.To, ts[i].Shape()...)
			k := r.pick(p, d, alt, ats, params)
			if k == nil {
				continue
			}
			if a.Kind == AtLoad && !r.PackPerCall {
				p.Why = append(p.Why, fmt.Sprintf("%s after %s: it would convert operand %s, a weight, every call; convert it once at load (Registry.Convert to %s), or set PackPerCall", k.Name, a.Name, p.op.Operands[i], a.To))
				continue
			}
			if best(k, a) {
				p.Kernel, p.Adapter, p.Operand = k, a, i
			}
		}
	}
}

// registered describes what is registered for op: each signature with
// its kernels and their backends.
func (r *Registry) registered(op *Op) []string {
	var out []string
	for _, k := range r.kernels {
		if k.Op != op.Name {
			continue
		}
		out = append(out, fmt.Sprintf("%s%s on %s", k.Name, signature(k.Operands), backendsOf(k.Backends)))
	}
	return out
}

// Run runs the operation op on operands ts on stream s, by the plan
// [Registry.Lookup] returns, recording its launches without syncing. A
// plan that inserts an adapter allocates the adapter's output in sc,
// and is refused without one; the device's trace sink
// ([gpu.Device.SetTrace]) sees the adapter, a fallback or a refusal as
// an event of s, and a fallback is reported once per process and key.
func (r *Registry) Run(s *gpu.Stream, sc *Scope, op string, params any, ts ...tensor.Tensor) error {
	if s == nil {
		return fmt.Errorf("dispatch: %s on a nil stream: %w", op, gpu.ErrArgs)
	}
	p, err := r.Lookup(s.Device(), op, params, ts...)
	if err != nil {
		var nk *NoKernelError
		if errors.As(err, &nk) {
			s.Report(trace.Event{Kind: trace.Refusal, Name: nk.Key.String(), Start: time.Now(), Detail: err.Error()})
		}
		return err
	}
	c := &Call{Stream: s, Tuner: r.Tuner, Params: params, Scope: sc}
	switch {
	case p.Fallback:
		s.Report(trace.Event{Kind: trace.Fallback, Name: p.Key.String(), Start: time.Now(), Detail: p.Detail()})
		r.warnOnce(p)
		return p.op.Reference(c, ts)
	case p.Adapter != nil:
		if sc == nil {
			return fmt.Errorf("dispatch: %s needs a temporary for the output of %s, and the call has no Scope to own it: %w", p.Detail(), p.Adapter.Name, gpu.ErrArgs)
		}
		src := ts[p.Operand]
		tmp, err := sc.Tensor(s.Device(), p.Adapter.To, src.Shape())
		if err != nil {
			return err
		}
		s.Report(trace.Event{Kind: trace.Adapter, Name: p.Adapter.Name, Start: time.Now(), Detail: p.Detail()})
		if err := p.Adapter.Run(c, tmp, src); err != nil {
			return fmt.Errorf("dispatch: %s: %w", p.Adapter.Name, err)
		}
		ts = slices.Clone(ts)
		ts[p.Operand] = tmp
	}
	return p.Kernel.Run(c, ts)
}

// Convert returns src converted to descriptor to by a registered adapter
// that runs on s's device, its output allocated in sc, which owns it
// until its Release: the way to pack a weight once, at load. It is an
// error wrapping [ErrNoKernel] when no adapter converts src to to.
func (r *Registry) Convert(s *gpu.Stream, sc *Scope, to tensor.Descriptor, src tensor.Tensor) (tensor.Tensor, error) {
	if err := r.install(); err != nil {
		return tensor.Tensor{}, err
	}
	if s == nil || sc == nil || src.IsZero() {
		return tensor.Tensor{}, fmt.Errorf("dispatch: Convert needs a stream, a scope and a tensor: %w", gpu.ErrArgs)
	}
	var from []string
	for _, a := range r.adapters {
		if a.From != src.Descriptor() || !runsOn(a.Backends, s.Device().Backend()) {
			continue
		}
		if a.To != to {
			from = append(from, a.Name+" to "+a.To.String())
			continue
		}
		dst, err := sc.Tensor(s.Device(), to, src.Shape())
		if err != nil {
			return tensor.Tensor{}, err
		}
		if err := a.Run(&Call{Stream: s, Tuner: r.Tuner, Scope: sc}, dst, src); err != nil {
			return tensor.Tensor{}, fmt.Errorf("dispatch: %s: %w", a.Name, err)
		}
		return dst, nil
	}
	if len(from) == 0 {
		from = []string{"none"}
	}
	return tensor.Tensor{}, fmt.Errorf("dispatch: no adapter converts %s to %s on %s (from %s: %s): %w", src, to, s.Device().Backend(), src.Descriptor(), strings.Join(from, "; "), ErrNoKernel)
}
