package hsaco

// This file reads a code object's target: the processor and the
// features of its target ID ("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"),
// checked against the ELF header's flags.

import (
	"fmt"
	"strings"
)

// Target is a code object's target ID.
type Target struct {
	Triple    string // "amdgcn-amd-amdhsa"
	Processor string // "gfx90a", "gfx1100"
	// Features are the target features the ID states, each a name and
	// its setting: "sramecc+", "xnack-". A feature not stated is "any".
	Features []string
}

// String is the target ID as the metadata spells it.
func (t Target) String() string {
	return strings.Join(append([]string{t.Triple + "--" + t.Processor}, t.Features...), ":")
}

// ParseTarget reads a target ID: the triple, "--", the processor, and
// features of ":name+" or ":name-".
func ParseTarget(id string) (Target, error) {
	head, feats, _ := strings.Cut(id, ":")
	triple, proc, ok := strings.Cut(head, "--")
	if !ok || triple != "amdgcn-amd-amdhsa" || proc == "" {
		return Target{}, fmt.Errorf("hsaco: target %q: want amdgcn-amd-amdhsa--processor[:feature±...]", id)
	}
	t := Target{Triple: triple, Processor: proc}
	if feats == "" {
		return t, nil
	}
	for _, f := range strings.Split(feats, ":") {
		if len(f) < 2 || f[len(f)-1] != '+' && f[len(f)-1] != '-' {
			return Target{}, fmt.Errorf("hsaco: target %q: feature %q is not name+ or name-", id, f)
		}
		t.Features = append(t.Features, f)
	}
	return t, nil
}

// setting is a feature's setting in t: '+', '-', or 0 for any.
func (t Target) setting(name string) byte {
	for _, f := range t.Features {
		if f[:len(f)-1] == name {
			return f[len(f)-1]
		}
	}
	return 0
}

// The e_flags bits of a code object of version 4 or later that state
// the xnack and sramecc settings.
const (
	efXnackMask   = 0x300
	efXnackAny    = 0x100
	efXnackOff    = 0x200
	efXnackOn     = 0x300
	efSrameccMask = 0xc00
	efSrameccAny  = 0x400
	efSrameccOff  = 0x800
	efSrameccOn   = 0xc00
)

// agrees checks that the xnack and sramecc settings of the target ID are
// the header's: a processor without the feature (flag bits 0) has no
// setting; one with it states any, off or on.
func (t Target) agrees(flags uint32) error {
	for _, f := range []struct {
		name               string
		mask, any, off, on uint32
	}{
		{"xnack", efXnackMask, efXnackAny, efXnackOff, efXnackOn},
		{"sramecc", efSrameccMask, efSrameccAny, efSrameccOff, efSrameccOn},
	} {
		bits, set := flags&f.mask, t.setting(f.name)
		ok := bits == 0 && set == 0 || bits == f.any && set == 0 || bits == f.off && set == '-' || bits == f.on && set == '+'
		if !ok {
			return fmt.Errorf("hsaco: target %s disagrees with e_flags %#x on %s", t, flags, f.name)
		}
	}
	return nil
}
