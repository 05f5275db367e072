package gpu

// This file holds templates: the members of one kernel written over a
// comptime parameter, registered together so that a program (a tuner)
// can enumerate them at run time.

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Template is a registered template: a kernel with a comptime parameter
// and its members, one kernel per //xpu:instance line. A member whose
// requires clause failed is a member too; its handle carries the refusal
// ([Kernel.Refused]).
type Template struct {
	name       string
	members    []*Kernel
	registered bool
	refused    string // what is wrong with the registration; empty when nothing is
}

// registerTemplate records the template name ("importpath.Func") with its
// members, in //xpu:instance order, and returns its handle. Generated code
// calls it, through gpuimpl.RegisterTemplate, from init functions, after
// it registered the members. A registration that is wrong still yields a
// Template, whose Refused says why, and never panics: a name registered
// before (the template is not recorded; the first stays), or a member
// that is nil, not registered, listed twice or a member of another
// template (the template is recorded; that member keeps its own
// template).
func registerTemplate(name string, members ...*Kernel) *Template {
	t := &Template{name: name, members: slices.Clone(members), registered: true}
	if name == "" {
		t.refused = "template without a name"
		return t
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.templates[name]; dup {
		t.refused = "registered twice under one name"
		return t
	}
	if registry.templates == nil {
		registry.templates = make(map[string]*Template)
	}
	registry.templates[name] = t
	var faults []string
	for i, k := range t.members {
		switch {
		case k == nil:
			faults = append(faults, fmt.Sprintf("member %d is a nil kernel", i))
		case !k.registered:
			faults = append(faults, fmt.Sprintf("member %d is no registered kernel", i))
		case slices.Contains(t.members[:i], k):
			faults = append(faults, fmt.Sprintf("member %q is listed twice", k.spec.Name))
		case k.template != nil:
			faults = append(faults, fmt.Sprintf("member %q is a member of the template %q", k.spec.Name, k.template.name))
		default:
			k.template = t
		}
	}
	t.refused = strings.Join(faults, "; ")
	return t
}

// LookupTemplate returns the template registered under name,
// "importpath.Func" (the template's Go function).
func LookupTemplate(name string) (*Template, bool) {
	registry.RLock()
	defer registry.RUnlock()
	t, ok := registry.templates[name]
	return t, ok
}

// Templates returns every registered template, sorted by name.
func Templates() []*Template {
	registry.RLock()
	ts := make([]*Template, 0, len(registry.templates))
	for _, t := range registry.templates {
		ts = append(ts, t)
	}
	registry.RUnlock()
	slices.SortFunc(ts, func(a, b *Template) int { return strings.Compare(a.name, b.name) })
	return ts
}

// Name returns the template's name, "importpath.Func", after its Go
// function.
func (t *Template) Name() string {
	if t == nil {
		return ""
	}
	return t.name
}

// Members returns the template's members in the order of its
// //xpu:instance lines, refused members included.
func (t *Template) Members() []*Kernel {
	if t == nil {
		return nil
	}
	return slices.Clone(t.members)
}

// Refused returns what is wrong with the template's registration (a name
// registered twice, a member that is no registered kernel or a member of
// another template; a nil or zero Template), or "" when nothing is. A member's own refusal, such
// as a failed requires clause, is its handle's ([Kernel.Refused]), not
// the template's.
func (t *Template) Refused() string {
	switch {
	case t == nil:
		return "gpu: nil template"
	case !t.registered:
		return "gpu: unregistered template"
	case t.refused != "":
		return fmt.Sprintf("gpu: template %q: %s", t.name, t.refused)
	}
	return ""
}

// Member returns the template's member whose comptime value is
// comptime, the first in //xpu:instance order; a refused member is
// returned too, and launching it reports its refusal. A value that is no
// member's (or not comparable) is an error wrapping [ErrArgs] that names
// the template and lists its members' values; so is any value of a
// template refused as a whole ([Template.Refused]), a nil or zero one
// included, whose members may be no kernels.
func (t *Template) Member(comptime any) (*Kernel, error) {
	if r := t.Refused(); r != "" {
		return nil, fmt.Errorf("%s: no member of the comptime value %+v: %w", r, comptime, ErrArgs)
	}
	if ct := reflect.TypeOf(comptime); ct != nil && ct.Comparable() {
		for _, k := range t.members {
			if k.spec.Comptime == comptime {
				return k, nil
			}
		}
	}
	vals := make([]string, len(t.members))
	for i, k := range t.members {
		vals[i] = fmt.Sprintf("%s %+v", k.Name()[strings.LastIndexByte(k.Name(), '.')+1:], k.Comptime())
	}
	return nil, fmt.Errorf("gpu: template %s has no member of the comptime value %+v; its members are %s: %w",
		t.name, comptime, strings.Join(vals, ", "), ErrArgs)
}

// Comptime returns the comptime value of a template member (a value of
// the template's comptime struct type), or nil for a plain kernel.
func (k *Kernel) Comptime() any {
	if k == nil {
		return nil
	}
	return k.spec.Comptime
}

// Template returns the name of the template k is a member of, or "" for a
// plain kernel.
func (k *Kernel) Template() string {
	if k == nil {
		return ""
	}
	registry.RLock()
	defer registry.RUnlock()
	return k.template.Name()
}
