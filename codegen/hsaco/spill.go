package hsaco

// This file states the HSACO tier's spill gate: a kernel whose code
// spills vector registers, or needs scratch beyond its own variables,
// fails at generation. Scalar registers spill to lanes of vector ones
// (v_writelane), which costs instructions but no memory: such spills
// fail the gate only when they reach memory, which the private segment
// then shows.

import (
	"fmt"
	"strings"
)

// SpillError is a kernel the spill gate fails, with what its code object
// reports.
type SpillError struct {
	Kernel       string
	VGPRSpills   int  // vector registers spilled
	SGPRSpills   int  // scalar registers spilled
	PrivateBytes int  // the private segment's fixed size per work-item
	Own          int  // of which the kernel's own variables may take
	DynamicStack bool // a stack of a size known only at run time
}

func (e *SpillError) Error() string {
	var why []string
	if e.VGPRSpills > 0 {
		why = append(why, fmt.Sprintf("VGPR spills %d", e.VGPRSpills))
	}
	if e.SGPRSpills > 0 {
		why = append(why, fmt.Sprintf("SGPR spills %d", e.SGPRSpills))
	}
	if e.PrivateBytes > e.Own {
		why = append(why, fmt.Sprintf("private segment %d bytes from spills/stack (its variables take at most %d)", e.PrivateBytes, e.Own))
	}
	if e.DynamicStack {
		why = append(why, "a dynamic stack")
	}
	return fmt.Sprintf("[xpu-kernel-spill] kernel %s: %s", e.Kernel, strings.Join(why, ", "))
}

// Spill is the spill gate: nil for a kernel that spills no vector
// register and needs no private segment beyond own bytes (what its variables take in
// memory, an array indexed at run time kept in scratch), else a
// *SpillError naming it and the cause. A kernel whose note lacks a spill
// count or its private segment's size cannot be shown not to spill: that
// is an error too, naming the fact.
func Spill(k *Kernel, own int) error {
	for _, f := range []struct {
		v    *int
		what string
	}{{k.VGPRSpills, ".vgpr_spill_count"}, {k.SGPRSpills, ".sgpr_spill_count"}, {k.PrivateSegmentBytes, ".private_segment_fixed_size"}} {
		if f.v == nil {
			return fmt.Errorf("hsaco: kernel %s: the metadata states no %s, which the spill gate reads", k.Name, f.what)
		}
	}
	e := &SpillError{Kernel: k.Name, VGPRSpills: *k.VGPRSpills, SGPRSpills: *k.SGPRSpills, PrivateBytes: *k.PrivateSegmentBytes, Own: own}
	e.DynamicStack = k.DynamicStack != nil && *k.DynamicStack
	if e.VGPRSpills == 0 && e.PrivateBytes <= own && !e.DynamicStack {
		return nil
	}
	return e
}
