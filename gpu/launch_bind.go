package gpu

// This file is the bind stage of a launch (see launch.go): it turns the
// arguments into what the driver binds, refusing what cannot be bound.

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// binding is what the bind stage makes of a launch's arguments: the
// buffers and uniform block the driver binds, and the state that checks
// them and that release undoes. A stream keeps one, reused under its mu,
// so that a launch allocates nothing here.
type binding struct {
	bufs   []driver.Buffer // per buffer parameter, then the fault word
	uni    []byte          // the uniform block
	states []*bufferState  // per buffer parameter
	spans  []span          // per buffer parameter
	locked []*bufferState  // read-locked until release, once each
}

// bind checks args against l's kernel's parameters and fills
// l.bound, read-locking each buffer until l.bound.release: scalars into
// the uniform block, buffers (of the parameter's element type, of s's
// device, live, not aliased in a way a dispatch cannot bind, aligned,
// within the device's binding size, long enough) in order, and the
// stream's fault word for a kernel that can fault; refuses a launch whose
// allocations hold more than the memory budget (admission.go); and
// orders the launch after the conflicting ones of other streams
// (hazard.go), binding again after each wait. The caller holds s.mu and
// l.dev.life.
func (l *launch) bind(s *Stream, args []any) error {
	for {
		if err := l.bindArgs(args); err != nil {
			return err
		}
		if err := l.dev.adm.checkBudget(l.kernel, l.bound.locked); err != nil {
			return err
		}
		if l.dev.hz.streams.Load() == 0 {
			break // one stream: nothing to order
		}
		t := l.dev.hz.order(s, l.kernel, l.bound)
		if t == nil {
			break
		}
		if err := s.awaitStream(t, l.bound); err != nil {
			return err
		}
	}
	if !l.art.Fault {
		return nil
	}
	w, err := s.faultWord(l.kernel)
	if err != nil {
		return err
	}
	l.bound.bufs = append(l.bound.bufs, w)
	return nil
}

// bindArgs is bind's work on args: the uniform block and the buffers.
func (l *launch) bindArgs(args []any) error {
	k, d, b := l.kernel, l.dev, l.bound
	if n := k.spec.UniformSize; cap(b.uni) < n {
		b.uni = make([]byte, n)
	} else {
		b.uni = b.uni[:n]
		clear(b.uni)
	}
	for i := range k.spec.Params {
		p := &k.spec.Params[i]
		if p.Kind == schema.ParamScalar {
			if err := putScalar(b.uni[p.Binding:p.Binding+4], args[i], p); err != nil {
				return fmt.Errorf("gpu: kernel %s: parameter %s: %w", k.spec.Name, p.Name, err)
			}
			continue
		}
		// A buffer is checked in line, not by a call per buffer: this
		// loop is most of a launch's own cost.
		st, err := bufferOf(args[i], p)
		if err != nil {
			return fmt.Errorf("gpu: kernel %s: parameter %s: %w", k.spec.Name, p.Name, err)
		}
		if st.dev != d {
			return fmt.Errorf("gpu: kernel %s: parameter %s: buffer of %s device %p, launched on %s device %p: %w",
				k.spec.Name, p.Name, st.dev.backend, st.dev, d.backend, d, ErrForeignBuffer)
		}
		sp := span{root: st.root, lo: st.offset, hi: st.offset + st.bytes}
		if err := checkAliasing(k, b.spans, p, sp); err != nil {
			return err
		}
		b.spans = append(b.spans, sp)
		if !slices.Contains(b.locked, st.root) {
			st.root.mu.RLock()
			b.locked = append(b.locked, st.root)
		}
		b.states = append(b.states, st)
		if err := st.live(); err != nil {
			return fmt.Errorf("gpu: kernel %s: parameter %s: %w", k.spec.Name, p.Name, err)
		}
		if lim := d.info.Limits.MaxStorageBufferBytes; lim != 0 && uint64(st.bytes) > lim {
			return fmt.Errorf("gpu: kernel %s: parameter %s: a buffer of %d bytes exceeds the device's %d per binding: %w",
				k.spec.Name, p.Name, st.bytes, lim, ErrLimits)
		}
		if err := checkAlignment(k, p, st, d.info.Limits); err != nil {
			return err
		}
		if st.bytes == 0 && st.root != st {
			return fmt.Errorf("gpu: kernel %s: parameter %s: an empty view (WebGPU binds no empty range; bind an empty buffer): %w",
				k.spec.Name, p.Name, ErrSize)
		}
		b.bufs = append(b.bufs, st.bound)
	}
	return checkLengths(k, func(j int) int { return b.states[j].bytes / b.states[j].elem.size }, args)
}

// release releases the buffer locks bind took and empties b for the next
// launch. The caller holds the stream's mu.
func (b *binding) release() {
	for _, st := range b.locked {
		st.mu.RUnlock()
	}
	clear(b.locked)
	clear(b.states)
	clear(b.spans)
	clear(b.bufs)
	b.locked, b.states, b.spans, b.bufs = b.locked[:0], b.states[:0], b.spans[:0], b.bufs[:0]
}

// span is the memory a buffer argument binds: the allocation it lies in
// (nil when unknown) and its byte range there.
type span struct {
	root   any
	lo, hi int
}

func (a span) overlaps(b span) bool {
	return a.root == b.root && (a == b || a.lo < b.hi && b.lo < a.hi)
}

// checkAliasing returns an ErrArgs error when sp, bound to p, shares an
// allocation with a buffer bound before it (bound, in order of k's
// buffer parameters) in ways a launch cannot bind: overlapping ranges
// (the same buffer twice, overlapping views) of which one is written, or
// any two ranges of which one is written and the other read only (WebGPU
// binds a buffer either as writable or as read-only storage within one
// dispatch). Disjoint views that are all written, or all read, may share
// an allocation.
func checkAliasing(k *Kernel, bound []span, p *schema.Param, sp span) error {
	for j, o := range bound {
		if o.root == nil || o.root != sp.root {
			continue
		}
		q := &k.spec.Params[bufferParam(k, j)]
		switch {
		case o.overlaps(sp) && (written(p) || written(q)):
			what := "the same buffer is"
			if o != sp {
				what = "overlapping views of one buffer are"
			}
			return fmt.Errorf("gpu: kernel %s: parameter %s: %s bound to parameter %s and one of them is written: %w",
				k.spec.Name, p.Name, what, q.Name, ErrArgs)
		case written(p) != written(q):
			return fmt.Errorf("gpu: kernel %s: parameter %s: views of one buffer are bound to parameter %s, one written and one read only (a dispatch binds a buffer as writable or as read-only storage, not both): %w",
				k.spec.Name, p.Name, q.Name, ErrArgs)
		}
	}
	return nil
}

// bufferParam returns the index in k's parameters of its j-th buffer.
func bufferParam(k *Kernel, j int) int {
	for i, p := range k.spec.Params {
		if p.Kind == schema.ParamBuffer {
			if j == 0 {
				return i
			}
			j--
		}
	}
	return -1
}

func written(p *schema.Param) bool {
	return p.Access != schema.AccessRead && p.Access != schema.AccessNone
}

// bufferOf returns the state of a *Buffer[T] argument for parameter p.
func bufferOf(arg any, p *schema.Param) (*bufferState, error) {
	b, ok := arg.(bufferArg)
	if !ok {
		return nil, fmt.Errorf("want *gpu.Buffer[%s], got %T: %w", p.Type, arg, ErrArgs)
	}
	st := b.state()
	if st == nil {
		return nil, fmt.Errorf("nil *gpu.Buffer[%s]: %w", p.Type, ErrArgs)
	}
	if st.elem.name != p.Type || st.elem.size != p.Size {
		return nil, fmt.Errorf("want *gpu.Buffer[%s] (%d-byte elements), got *gpu.Buffer[%s] (%d-byte elements): %w",
			p.Type, p.Size, st.elem.name, st.elem.size, ErrArgs)
	}
	return st, nil
}

// putScalar writes arg, whose Go type must be p.Type, into dst as the
// kernel's uniform block holds it (little endian).
func putScalar(dst []byte, arg any, p *schema.Param) error {
	var bits uint32
	switch v := arg.(type) {
	case float32:
		if p.Type != (schema.TypeName{Name: "float32"}) {
			return scalarMismatch(arg, p)
		}
		bits = math.Float32bits(v)
	case uint32:
		if p.Type != (schema.TypeName{Name: "uint32"}) {
			return scalarMismatch(arg, p)
		}
		bits = v
	case int32:
		if p.Type != (schema.TypeName{Name: "int32"}) {
			return scalarMismatch(arg, p)
		}
		bits = uint32(v)
	default:
		rv := reflect.ValueOf(arg)
		if !rv.IsValid() || typeName(rv.Type()) != p.Type {
			return scalarMismatch(arg, p)
		}
		switch rv.Kind() {
		case reflect.Float32:
			bits = math.Float32bits(float32(rv.Float()))
		case reflect.Uint32:
			bits = uint32(rv.Uint())
		case reflect.Int32:
			bits = uint32(int32(rv.Int()))
		default:
			return scalarMismatch(arg, p)
		}
	}
	binary.LittleEndian.PutUint32(dst, bits)
	return nil
}

func scalarMismatch(arg any, p *schema.Param) error {
	return fmt.Errorf("want a %s scalar, got %T: %w", p.Type, arg, ErrArgs)
}
