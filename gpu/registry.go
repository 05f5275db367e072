package gpu

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/handle"
	"github.com/goxpu/xpu/schema"
)

// Kernel is a registered kernel: a checked private copy of its spec. Launch
// it with [Stream.Launch].
type Kernel struct {
	spec       driver.Kernel
	registered bool
	refused    string    // why it cannot launch; empty when it can
	buffers    int       // buffer parameters
	template   *Template // the template k is a member of; set under registry's lock
}

// registry holds every kernel and every template registered by name.
var registry struct {
	sync.RWMutex
	byName    map[string]*Kernel
	templates map[string]*Template
}

// The constructors of handles, for package gpuimpl, whose Register and
// RegisterTemplate generated code calls.
func init() {
	handle.New = func(spec *driver.Kernel) any { return register(spec) }
	handle.NewTemplate = registerTemplate
}

// register records the compiled form of a kernel under spec.Name
// ("importpath.Name") and returns its handle. Generated code calls it,
// through gpuimpl.Register, from init functions. The spec is copied and
// checked: a spec that cannot be launched (invalid parameters, a Refused
// reason, a name registered before) still yields a Kernel, whose launches
// fail with [ErrRefused] and the reason.
func register(spec *driver.Kernel) *Kernel {
	if spec == nil {
		return &Kernel{registered: true, refused: "nil kernel spec"}
	}
	k := &Kernel{spec: *spec, registered: true}
	k.spec.Params = cloneParams(spec.Params)
	k.spec.Artifacts = cloneArtifacts(spec.Artifacts)
	// Generated code states the kernel's facts once, in the spec; its
	// manifests hold what differs per artifact.
	k.spec.CompleteManifests()
	k.refused = spec.Refused
	if k.refused == "" {
		k.refused = checkSpec(&k.spec)
	}
	for _, p := range k.spec.Params {
		if p.Kind == schema.ParamBuffer {
			k.buffers++
		}
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.byName == nil {
		registry.byName = make(map[string]*Kernel)
	}
	if _, dup := registry.byName[k.spec.Name]; dup {
		k.refused = "registered twice under one name"
		return k
	}
	if k.spec.Name != "" {
		registry.byName[k.spec.Name] = k
	}
	return k
}

// checkSpec returns why spec cannot be launched, or "".
func checkSpec(spec *driver.Kernel) string {
	if spec.Name == "" {
		return "kernel spec without a name"
	}
	if b := spec.Block.Norm(); b.Count() == 0 {
		return fmt.Sprintf("empty block %v", spec.Block)
	}
	if spec.UniformSize < 0 || spec.UniformSize%16 != 0 {
		return fmt.Sprintf("uniform size %d is not a multiple of 16", spec.UniformSize)
	}
	if spec.SharedBytes < 0 {
		return fmt.Sprintf("negative shared size %d", spec.SharedBytes)
	}
	nb := 0
	for _, p := range spec.Params {
		if msg := checkParam(spec, p, nb); msg != "" {
			return fmt.Sprintf("parameter %s: %s", p.Name, msg)
		}
		if p.Kind == schema.ParamBuffer {
			nb++
		}
	}
	return ""
}

func checkParam(spec *driver.Kernel, p schema.Param, buffer int) string {
	if p.Type.Name == "" {
		return "no type"
	}
	switch p.Kind {
	case schema.ParamBuffer:
		if p.Binding != buffer {
			return fmt.Sprintf("buffer %d bound at %d", buffer, p.Binding)
		}
		if p.Size != 1 && p.Size != 2 && (p.Size <= 0 || p.Size%4 != 0) {
			return fmt.Sprintf("element size %d is not 1, 2 (a narrow integer) or a positive multiple of 4", p.Size)
		}
		if p.Access < schema.AccessNone || p.Access > schema.AccessAtomic {
			return fmt.Sprintf("unknown access %d", int(p.Access))
		}
		for _, f := range p.MinLen {
			if !slices.ContainsFunc(spec.Params, func(q schema.Param) bool {
				return q.Name == f && q.Kind == schema.ParamScalar && (q.Type == schema.TypeName{Name: "uint32"} || q.Type == schema.TypeName{Name: "int32"})
			}) {
				return fmt.Sprintf("its length bound %s: %q is no uint32 or int32 scalar parameter", strings.Join(p.MinLen, "*"), f)
			}
		}
	case schema.ParamScalar:
		if p.Size != 4 {
			return fmt.Sprintf("scalar of %d bytes (want 4)", p.Size)
		}
		if p.Binding < 0 || p.Binding%4 != 0 || p.Binding > spec.UniformSize-p.Size { // no Binding+Size: it may wrap
			return fmt.Sprintf("uniform offset %d outside the %d-byte uniform block", p.Binding, spec.UniformSize)
		}
	default:
		return fmt.Sprintf("unknown kind %d", int(p.Kind))
	}
	return ""
}

// Lookup returns the kernel registered under name.
func Lookup(name string) (*Kernel, bool) {
	registry.RLock()
	defer registry.RUnlock()
	k, ok := registry.byName[name]
	return k, ok
}

// Kernels returns every registered kernel, sorted by name.
func Kernels() []*Kernel {
	registry.RLock()
	ks := make([]*Kernel, 0, len(registry.byName))
	for _, k := range registry.byName {
		ks = append(ks, k)
	}
	registry.RUnlock()
	slices.SortFunc(ks, func(a, b *Kernel) int { return strings.Compare(a.spec.Name, b.spec.Name) })
	return ks
}

// Name returns the kernel's name, "importpath.Name".
func (k *Kernel) Name() string {
	if k == nil {
		return ""
	}
	return k.spec.Name
}

// Block returns the kernel's pinned block size, with zero Y and Z as 1.
func (k *Kernel) Block() xpu.Dim3 {
	if k == nil {
		return xpu.Dim3{}
	}
	return k.spec.Block.Norm()
}

// Spec returns a copy of the kernel's spec as registered: its parameters
// and its artifacts.
func (k *Kernel) Spec() *driver.Kernel {
	if k == nil {
		return nil
	}
	s := k.spec
	s.Params = cloneParams(k.spec.Params)
	s.Artifacts = cloneArtifacts(k.spec.Artifacts)
	return &s
}

// cloneParams copies params deeply enough that the copy's length bounds
// are its own.
func cloneParams(params []schema.Param) []schema.Param {
	params = slices.Clone(params)
	for i := range params {
		params[i].MinLen = slices.Clone(params[i].MinLen)
	}
	return params
}

// Refused returns why the kernel cannot be launched, or "" when it can.
func (k *Kernel) Refused() string {
	if err := k.launchable(); err != nil {
		return err.Error()
	}
	return ""
}

// launchable returns an error wrapping ErrRefused when k has no code.
func (k *Kernel) launchable() error {
	switch {
	case k == nil:
		return fmt.Errorf("gpu: nil kernel: %w", ErrRefused)
	case !k.registered:
		return fmt.Errorf("gpu: kernel %q: no code registered: %w", k.spec.Name, ErrRefused)
	case k.refused != "":
		return fmt.Errorf("gpu: kernel %q: %s: %w", k.spec.Name, k.refused, ErrRefused)
	}
	return nil
}
