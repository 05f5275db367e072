package gpu

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"slices"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/schema"
)

// Launch records a launch of k over groups on the stream, with args bound
// to the kernel's parameters after its Thread, in order: a *Buffer[T] for
// each buffer parameter (T's reflect String equal to the parameter's
// type), and a value of exactly the parameter's Go type for each scalar.
//
// Every launch is checked first; a refused launch records nothing and
// returns an error wrapping one of the sentinels of errors.go
// ([ErrNoCode], [ErrArgs], [ErrSize], [ErrBufferLen], [ErrMisaligned],
// [ErrForeignBuffer], [ErrReleased], [ErrGrid], [ErrLimits],
// [ErrWaveWidth], [ErrScalarTwin], [ErrCompile], [ErrClosed]), naming the
// kernel and the parameter. [Stream.LaunchWith] adds the checks of a
// launch's options ([ErrBlock], [ErrDeadline]).
func (s *Stream) Launch(k *Kernel, groups xpu.Dim3, args ...any) error {
	return s.LaunchWith(LaunchOptions{}, k, groups, args...)
}

// LaunchWith is Launch with options: a launch whose Block differs from
// the kernel's pinned block is refused with [ErrBlock]; a launch whose
// Deadline passes before it is submitted is refused with [ErrDeadline]
// and never run. A launch with a deadline is submitted at once (the
// stream flushes), so that it cannot run late in a deferred batch.
func (s *Stream) LaunchWith(o LaunchOptions, k *Kernel, groups xpu.Dim3, args ...any) error {
	return s.launch(context.Background(), o, k, groups, args)
}

// launch is LaunchWith whose waits ctx bounds, with the device's wait
// limit: the run on a backend that runs a launch as it records it (the
// CPU), the wait for submitted work on one that bounds it (WebGPU).
func (s *Stream) launch(ctx context.Context, o LaunchOptions, k *Kernel, groups xpu.Dim3, args []any) error {
	if err := s.usable("Stream.Launch"); err != nil {
		return err
	}
	if err := k.launchable(); err != nil {
		return err
	}
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	if err := o.checkBlock(k); err != nil {
		return err
	}
	if err := d.fits(k); err != nil {
		return err
	}
	g, err := checkGrid(k, groups, d.info.Limits)
	if err != nil {
		return err
	}
	if len(args) != len(k.spec.Params) {
		return fmt.Errorf("gpu: kernel %s takes %d arguments, got %d: %w", k.spec.Name, len(k.spec.Params), len(args), ErrArgs)
	}
	if err := o.checkDeadline(k, "before it was checked"); err != nil {
		return err
	}
	prog, err := d.program(k)
	if err != nil {
		return err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.errClosed()
	}
	defer s.unbind()
	if err := s.bind(k, args); err != nil {
		return err
	}
	if err := s.bindFault(k); err != nil {
		return err
	}
	if err := o.checkDeadline(k, "before it was submitted"); err != nil {
		return err
	}
	ctx, cancel := d.bound(ctx)
	defer cancel()
	if err := s.q.Launch(ctx, prog, g, s.bufs, s.uni); err != nil {
		return fmt.Errorf("gpu: kernel %s on %s: %w", k.spec.Name, d.backend, err)
	}
	s.pending = true
	s.launchedFault(k)
	if !o.Deadline.IsZero() {
		s.pending = false
		if err := s.q.Flush(ctx); err != nil {
			return fmt.Errorf("gpu: kernel %s on %s: flush: %w", k.spec.Name, d.backend, err)
		}
	}
	return nil
}

// checkGrid returns groups with zero Y and Z as 1, or an ErrGrid error.
func checkGrid(k *Kernel, groups xpu.Dim3, lim Limits) (xpu.Dim3, error) {
	g := groups.Norm()
	if g.X == 0 {
		return g, fmt.Errorf("gpu: kernel %s: empty grid %v: %w", k.spec.Name, groups, ErrGrid)
	}
	if m := lim.MaxGroups; m != 0 && (g.X > m || g.Y > m || g.Z > m) {
		return g, fmt.Errorf("gpu: kernel %s: grid %v exceeds the device's %d groups per dimension: %w", k.spec.Name, g, m, ErrGrid)
	}
	// A work-item's global index on an axis is a uint32 (Thread.GlobalX):
	// a grid of more work-items would repeat indices. Each axis then
	// holds at most 2^32 groups, but their product may not fit the
	// uint64 that counts a launch's groups.
	b := k.spec.Block.Norm()
	for _, ax := range [...]struct {
		name         string
		groups, size uint32
	}{{"X", g.X, b.X}, {"Y", g.Y, b.Y}, {"Z", g.Z, b.Z}} {
		if uint64(ax.groups)*uint64(ax.size) > 1<<32 {
			return g, fmt.Errorf("gpu: kernel %s: grid %v of blocks %v: %d work-items on %s, more than a uint32 global index reaches: %w",
				k.spec.Name, g, b, uint64(ax.groups)*uint64(ax.size), ax.name, ErrGrid)
		}
	}
	if hi, _ := bits.Mul64(uint64(g.X)*uint64(g.Y), uint64(g.Z)); hi != 0 {
		return g, fmt.Errorf("gpu: kernel %s: grid %v has more than 2^64 groups: %w", k.spec.Name, g, ErrGrid)
	}
	return g, nil
}

// checkLimits returns an ErrLimits error when k, running its artifact a,
// does not fit a device with limits lim (a zero limit is absent and not
// checked).
func checkLimits(k *Kernel, a *schema.Artifact, lim Limits) error {
	b := k.spec.Block.Norm()
	fail := func(what string, need, have uint64) error {
		return fmt.Errorf("gpu: kernel %s: %s %d exceeds the device's %d: %w", k.spec.Name, what, need, have, ErrLimits)
	}
	if m := lim.MaxInvocationsPerBlock; m != 0 && b.Count() > uint64(m) {
		return fail("threads per block", b.Count(), uint64(m))
	}
	mb := lim.MaxBlockSize
	for _, ax := range [...]struct {
		name      string
		need, max uint32
	}{{"block X", b.X, mb.X}, {"block Y", b.Y, mb.Y}, {"block Z", b.Z, mb.Z}} {
		if ax.max != 0 && ax.need > ax.max {
			return fail(ax.name, uint64(ax.need), uint64(ax.max))
		}
	}
	if m := lim.MaxSharedBytes; m != 0 && k.spec.SharedBytes > int(m) {
		return fail("shared bytes", uint64(k.spec.SharedBytes), uint64(m))
	}
	nbuf := k.buffers
	if a.Fault {
		nbuf++ // the fault word is a storage buffer too
	}
	if m := lim.MaxStorageBuffers; m != 0 && nbuf > int(m) {
		return fail("storage buffers", uint64(nbuf), uint64(m))
	}
	if m := lim.MaxUniformBytes; m != 0 && k.spec.UniformSize > int(m) {
		return fail("uniform bytes", uint64(k.spec.UniformSize), uint64(m))
	}
	return nil
}

// bind checks args against k's parameters and fills s.bufs and s.uni,
// read-locking each buffer until unbind. The caller holds s.mu.
func (s *Stream) bind(k *Kernel, args []any) error {
	d := s.dev
	if n := k.spec.UniformSize; cap(s.uni) < n {
		s.uni = make([]byte, n)
	} else {
		s.uni = s.uni[:n]
		clear(s.uni)
	}
	for i := range k.spec.Params {
		p := &k.spec.Params[i]
		if p.Kind == schema.ParamScalar {
			if err := putScalar(s.uni[p.Binding:p.Binding+4], args[i], p); err != nil {
				return fmt.Errorf("gpu: kernel %s: parameter %s: %w", k.spec.Name, p.Name, err)
			}
			continue
		}
		st, err := bufferOf(args[i], p)
		if err != nil {
			return fmt.Errorf("gpu: kernel %s: parameter %s: %w", k.spec.Name, p.Name, err)
		}
		if st.dev != d {
			return fmt.Errorf("gpu: kernel %s: parameter %s: buffer of %s device %p, launched on %s device %p: %w",
				k.spec.Name, p.Name, st.dev.backend, st.dev, d.backend, d, ErrForeignBuffer)
		}
		sp := span{root: st.root, lo: st.offset, hi: st.offset + st.bytes}
		if err := checkAliasing(k, s.spans, p, sp); err != nil {
			return err
		}
		s.spans = append(s.spans, sp)
		if !slices.Contains(s.locked, st.root) {
			st.root.mu.RLock()
			s.locked = append(s.locked, st.root)
		}
		s.states = append(s.states, st)
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
		s.bufs = append(s.bufs, st.bound)
	}
	return checkLengths(k, func(j int) int { return s.states[j].bytes / s.states[j].elem.size }, args)
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

// unbind releases the buffer locks bind took. The caller holds s.mu.
func (s *Stream) unbind() {
	for _, st := range s.locked {
		st.mu.RUnlock()
	}
	clear(s.locked)
	clear(s.states)
	clear(s.spans)
	clear(s.bufs)
	s.locked, s.states, s.spans, s.bufs = s.locked[:0], s.states[:0], s.spans[:0], s.bufs[:0]
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
