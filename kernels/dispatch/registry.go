package dispatch

import (
	"errors"
	"fmt"
	"log"
	"slices"
	"sync"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/tune"
)

// ErrInUse is wrapped by a registration after the registry's first use.
var ErrInUse = errors.New("registry in use")

// A Set is kernels and adapters registered together: a registry's
// automatic set, or a provider's contribution.
type Set struct {
	Kernels  []Kernel
	Adapters []Adapter
}

// A Registry holds operations, the kernels that implement them and the
// adapters between operand descriptors. Its fields are set before its
// first use; after that it is safe for concurrent use.
type Registry struct {
	// Tuner is handed to every kernel it runs; nil is tune.Default().
	Tuner *tune.Tuner
	// Warn reports a fallback to an operation's reference, once per
	// process for each key; nil writes it to the standard logger.
	Warn func(msg string)
	// NoFallback refuses a call no kernel matches instead of running the
	// operation's reference.
	NoFallback bool
	// PackPerCall lets a lookup insert an adapter of kind AtLoad inside
	// a call, converting the weight every time.
	PackPerCall bool

	ops  map[string]*Op
	auto func() Set
	err  error // what is wrong with the operations New was given

	mu       sync.Mutex
	used     bool // a lookup or a listing has run: the set is final
	explicit bool // kernels were registered before first use
	kernels  []*Kernel
	adapters []*Adapter
}

// New returns a registry of the operations ops, whose automatic set is
// what auto returns (nil: none), installed at first use unless kernels
// are registered before. Operations that do not check (a name twice, no
// operands) make every use of the registry an error wrapping
// gpu.ErrArgs.
func New(ops []Op, auto func() Set) *Registry {
	r := &Registry{ops: map[string]*Op{}, auto: auto}
	for i := range ops {
		op := ops[i]
		if op.Name == "" || len(op.Operands) == 0 || op.Outputs < 0 || op.Outputs > len(op.Operands) {
			r.err = errors.Join(r.err, fmt.Errorf("dispatch: operation %q: a name, operands, and no more outputs than operands: %w", op.Name, gpu.ErrArgs))
			continue
		}
		if r.ops[op.Name] != nil {
			r.err = errors.Join(r.err, fmt.Errorf("dispatch: operation %q defined twice: %w", op.Name, gpu.ErrArgs))
			continue
		}
		op.Operands = slices.Clone(op.Operands)
		r.ops[op.Name] = &op
	}
	return r
}

// Register adds kernels before the registry's first use, which then
// holds the kernels registered this way and not its automatic set
// ([Registry.RegisterAutomatic] adds that too). After the first use it
// is an error wrapping [ErrInUse]; a kernel that names no defined
// operation, or descriptors it cannot have, one wrapping gpu.ErrArgs.
func (r *Registry) Register(ks ...Kernel) error {
	return r.add(Set{Kernels: ks})
}

// RegisterAdapter adds adapters before the registry's first use, as
// Register adds kernels.
func (r *Registry) RegisterAdapter(as ...Adapter) error {
	return r.add(Set{Adapters: as})
}

// RegisterAutomatic adds the automatic set explicitly, for a registry
// that is to hold it beside kernels of its own.
func (r *Registry) RegisterAutomatic() error {
	if r.auto == nil {
		return nil
	}
	return r.add(r.auto())
}

func (r *Registry) add(s Set) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	if r.used {
		return fmt.Errorf("dispatch: registering after the registry's first lookup, which fixed its set: %w", ErrInUse)
	}
	if err := r.addLocked(s); err != nil {
		return err
	}
	r.explicit = true
	return nil
}

// addLocked checks and adds s, all of it or none.
func (r *Registry) addLocked(s Set) error {
	for i := range s.Kernels {
		if err := s.Kernels[i].check(r.ops); err != nil {
			return err
		}
	}
	for i := range s.Adapters {
		if err := s.Adapters[i].check(); err != nil {
			return err
		}
	}
	for i := range s.Kernels {
		k := s.Kernels[i]
		k.Operands, k.Backends = slices.Clone(k.Operands), slices.Clone(k.Backends)
		r.kernels = append(r.kernels, &k)
	}
	for i := range s.Adapters {
		a := s.Adapters[i]
		a.Backends = slices.Clone(a.Backends)
		r.adapters = append(r.adapters, &a)
	}
	return nil
}

// install fixes the registry's set at its first use: the automatic set,
// unless kernels were registered explicitly. An automatic set that does
// not check is the library's defect, reported at every use.
func (r *Registry) install() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	if r.used {
		return nil
	}
	if !r.explicit && r.auto != nil {
		if err := r.addLocked(r.auto()); err != nil {
			return fmt.Errorf("dispatch: the automatic set: %w", err)
		}
	}
	r.used = true
	return nil
}

// Kernels returns the registered kernels in registration order, fixing
// the registry's set as a lookup does.
func (r *Registry) Kernels() ([]Kernel, error) {
	if err := r.install(); err != nil {
		return nil, err
	}
	ks := make([]Kernel, len(r.kernels))
	for i, k := range r.kernels {
		ks[i] = *k
	}
	return ks, nil
}

// Adapters returns the registered adapters in registration order, fixing
// the registry's set as a lookup does.
func (r *Registry) Adapters() ([]Adapter, error) {
	if err := r.install(); err != nil {
		return nil, err
	}
	as := make([]Adapter, len(r.adapters))
	for i, a := range r.adapters {
		as[i] = *a
	}
	return as, nil
}

// Op returns the operation named name.
func (r *Registry) Op(name string) (Op, bool) {
	op := r.ops[name]
	if op == nil {
		return Op{}, false
	}
	return *op, true
}

// warned holds the keys a fallback has been reported for in this
// process.
var warned sync.Map

// warnOnce reports the fallback of plan once per process and key.
func (r *Registry) warnOnce(p *Plan) {
	if _, seen := warned.LoadOrStore(p.Key.String(), true); seen {
		return
	}
	msg := "xpu: " + p.Detail()
	if r.Warn != nil {
		r.Warn(msg)
		return
	}
	log.Print(msg)
}
