package gpu

// This file runs a kernel's reference: its Go function on the reference
// runner, driven by the handle, so that the block, the wave width, the
// comptime value of a template member and the launch checks come from
// the kernel's directive and are never restated by hand.

import (
	"fmt"
	"reflect"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/schema"
)

// ReferenceOptions are the options of a reference run.
type ReferenceOptions struct {
	// Wave is the wave width the reference runs at; zero means the
	// kernel's declared width, or 32 for a width-agnostic kernel.
	Wave uint32
	// RaceCheck turns the reference runner's race check on or off (see
	// xpu.Config.RaceCheck).
	RaceCheck xpu.RaceCheck
	// Goroutines runs every work-item on a goroutine of its own from its
	// start (see xpu.Config.Goroutines), calling the kernel's Go function
	// through reflection rather than its generated binder: the runner as
	// it was before either, for measuring against.
	Goroutines bool
}

// Reference runs the kernel's Go function on the reference runner
// (xpu.Run) over groups, with its pinned block, its declared wave width
// (32 when it declares none) and, for a template member, its comptime
// value; args are the kernel's arguments after its Thread, as for
// [Stream.Launch] but with a slice where a launch takes a buffer.
//
// It refuses what a launch refuses that does not depend on a device, with
// the same errors: a refused kernel, such as a template member whose
// requires clause fails ([ErrRefused], naming the member and the clause),
// an empty grid ([ErrGrid]), arguments that do not fit the parameters or
// a written slice that shares memory with another argument ([ErrArgs]),
// and a slice shorter than its declared length ([ErrBufferLen]). A kernel
// that fails while it runs returns an error wrapping xpu.ErrRun (and
// xpu.ErrRace for a shared-memory race).
func (k *Kernel) Reference(groups xpu.Dim3, args ...any) error {
	return k.ReferenceWith(ReferenceOptions{}, groups, args...)
}

// ReferenceWith is Reference with options.
func (k *Kernel) ReferenceWith(o ReferenceOptions, groups xpu.Dim3, args ...any) error {
	if err := k.launchable(); err != nil {
		return err
	}
	l := launch{kernel: k, groups: groups}
	if err := l.checkReference(args); err != nil {
		return err
	}
	if err := l.bindSlices(args); err != nil {
		return err
	}
	return l.runReference(o, args)
}

// Reference runs k's reference as d runs k: it refuses what a launch of
// k on d refuses before it binds arguments (no code for d, a wave width
// or tier d cannot run, d's limits, d's grid limits), then runs
// [Kernel.Reference] at the wave width d runs k at.
func (d *Device) Reference(k *Kernel, groups xpu.Dim3, args ...any) error {
	if err := d.usable("Device.Reference"); err != nil {
		return err
	}
	if err := k.launchable(); err != nil {
		return err
	}
	l := launch{kernel: k, groups: groups, dev: d}
	d.life.RLock()
	if d.closed {
		d.life.RUnlock()
		return d.errClosed()
	}
	err := l.checkReference(args)
	var choice WaveChoice
	if err == nil {
		var a *schema.Artifact
		if a, err = d.artifact(k); err == nil {
			choice, err = d.waveChoice(k, a)
		}
	}
	lim := d.info.Limits
	d.life.RUnlock()
	if err != nil {
		return err
	}
	if err := l.bindSlices(args); err != nil {
		return err
	}
	wave := choice.Width
	if wave == 0 {
		wave = lim.SubgroupMax
	}
	return l.runReference(ReferenceOptions{Wave: wave}, args)
}

// checkReference is the check stage of a reference run: a kernel with a
// Go function to run, then the checks of a launch (on l.dev, when it is
// not nil, whose life the caller holds for reading).
func (l *launch) checkReference(args []any) error {
	if l.kernel.spec.Func == nil {
		return fmt.Errorf("gpu: kernel %s: no Go function registered (a spec written by hand): %w", l.kernel.spec.Name, ErrNoCode)
	}
	return l.check(args)
}

// bindSlices is the bind stage of a reference run: it checks args
// against l's kernel's parameters: a slice of the parameter's
// element type for each buffer, a scalar of its type for each scalar; no
// aliasing a launch refuses; no slice shorter than its declared length.
func (l *launch) bindSlices(args []any) error {
	k := l.kernel
	var spans []span
	var lens []int
	for i := range k.spec.Params {
		p := &k.spec.Params[i]
		if p.Kind == schema.ParamScalar {
			var word [4]byte
			if err := putScalar(word[:], args[i], p); err != nil {
				return fmt.Errorf("gpu: kernel %s: parameter %s: %w", k.spec.Name, p.Name, err)
			}
			continue
		}
		v := reflect.ValueOf(args[i])
		if v.Kind() != reflect.Slice || typeName(v.Type().Elem()) != p.Type || int(v.Type().Elem().Size()) != p.Size {
			return fmt.Errorf("gpu: kernel %s: parameter %s: want []%s (%d-byte elements), got %T: %w", k.spec.Name, p.Name, p.Type, p.Size, args[i], ErrArgs)
		}
		sp := sliceSpan(v)
		if err := checkAliasing(k, spans, p, sp); err != nil {
			return err
		}
		spans = append(spans, sp)
		lens = append(lens, v.Len())
	}
	return checkLengths(k, func(j int) int { return lens[j] }, args)
}

// runReference is the record stage of a reference run: it runs the
// kernel's Go function on the reference runner over l's grid, at o's wave
// width (the kernel's declared one when zero).
func (l *launch) runReference(o ReferenceOptions, args []any) error {
	k := l.kernel
	in, err := withComptime(k, args)
	if err != nil {
		return err
	}
	wave := o.Wave
	if wave == 0 {
		wave = k.spec.Wave
	}
	cfg := xpu.Config{Groups: l.grid, Block: k.spec.Block, WaveWidth: wave, RaceCheck: o.RaceCheck, Goroutines: o.Goroutines}
	run := func() error { return xpu.Run(cfg, k.spec.Func, in...) }
	if k.spec.Bind != nil && !o.Goroutines { // Goroutines asks for the old path whole
		if call := k.spec.Bind(in); call != nil {
			run = func() error { return xpu.RunBound(cfg, k.spec.Func, call, in...) }
		}
	}
	if err := run(); err != nil {
		return fmt.Errorf("gpu: kernel %s: reference run: %w", k.spec.Name, err)
	}
	return nil
}

// sliceSpan is the memory of the slice v. Slices that end their capacity
// at one address lie in one array: reslicings of one slice, as views are
// of one buffer. A slice of no capacity is in no allocation.
func sliceSpan(v reflect.Value) span {
	if v.Cap() == 0 {
		return span{}
	}
	size := int(v.Type().Elem().Size())
	lo := int(uintptr(v.UnsafePointer()))
	end := lo + v.Cap()*size
	return span{root: uintptr(end), lo: lo - end, hi: lo - end + v.Len()*size}
}

// withComptime returns args with a template member's comptime value
// inserted where its function takes it.
func withComptime(k *Kernel, args []any) ([]any, error) {
	ct := k.spec.Comptime
	if ct == nil {
		return args, nil
	}
	ft := reflect.TypeOf(k.spec.Func)
	for i := 1; ft.Kind() == reflect.Func && i < ft.NumIn(); i++ {
		if ft.In(i) == reflect.TypeOf(ct) {
			in := make([]any, 0, len(args)+1)
			in = append(in, args[:i-1]...)
			in = append(in, ct)
			return append(in, args[i-1:]...), nil
		}
	}
	return nil, fmt.Errorf("gpu: kernel %s: its Go function takes no %T: %w", k.spec.Name, ct, ErrNoCode)
}
