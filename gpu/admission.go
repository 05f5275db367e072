package gpu

// This file is admission: what the runtime lets onto a device before a
// launch is checked or a buffer allocated. Two rules:
//
//   - A device's memory budget (SetMemoryBudget), and a pool's (Pool): an
//     allocation that would bring the bytes of its live allocations over
//     the budget, and a launch whose buffers' allocations hold more than
//     it, are refused with ErrBudget.
//   - Protected launches first: a launch with a deadline is protected;
//     while one is between admission and submission on a device (on the
//     CPU, until it has run), a launch without a deadline waits at
//     admission, before it binds or takes the device's locks, so that it
//     takes neither a stream, the CPU's worker pool nor the queue ahead
//     of the protected one. A launch already past admission is not
//     stopped. The deadline rule itself (options.go) is unchanged: a
//     protected launch is submitted by its deadline or refused.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/goxpu/xpu/schema"
)

// admission is a device's memory budget and count of protected launches.
type admission struct {
	budget

	protected atomic.Int32 // protected launches admitted, not yet submitted
	mu        sync.Mutex   // guards clear and the changes of protected
	clear     chan struct{}
}

// SetMemoryBudget bounds the device memory the program's buffers hold
// from now on to bytes: an allocation ([NewBuffer], [Upload]) that would
// bring the live allocations' bytes over it, and a launch whose buffers'
// allocations (each once, a view by its whole allocation) hold more than
// it, are refused with an error wrapping [ErrBudget] that names the sizes.
// Buffers already allocated stay valid when the budget falls below what
// they hold. A budget of 0, the default, removes the bound; a negative
// one reads as 0. The budget counts the program's buffers, not what a
// driver allocates for itself (WebGPU's uniform rings, a stream's fault
// word). On a nil Device it does nothing.
func (d *Device) SetMemoryBudget(bytes int64) {
	if d == nil {
		return
	}
	d.adm.budget.budget.Store(max(bytes, 0))
}

// MemoryBudget returns the budget SetMemoryBudget set; 0 for none.
func (d *Device) MemoryBudget() int64 {
	if d == nil {
		return 0
	}
	return d.adm.budget.budget.Load()
}

// MemoryInUse returns the bytes the device's live allocations hold (views
// add none); 0 for a nil Device.
func (d *Device) MemoryInUse() int64 {
	if d == nil {
		return 0
	}
	return d.adm.inUse.Load()
}

// budget is a bound on the bytes of live allocations: a device's or a
// pool's.
type budget struct {
	budget atomic.Int64 // bytes; 0: none
	inUse  atomic.Int64 // bytes of the live allocations
}

// reserve counts an allocation of size bytes of elem elements against
// the budget, named what in an error, or returns an ErrBudget error.
// unreserve gives it back.
func (a *budget) reserve(what string, elem schema.TypeName, size int) error {
	for {
		used, budget := a.inUse.Load(), a.budget.Load()
		if budget > 0 && int64(size) > budget-used {
			return fmt.Errorf("gpu: NewBuffer[%s] of %d bytes: %d bytes in use, of %s of %d: %w", elem, size, used, what, budget, ErrBudget)
		}
		if a.inUse.CompareAndSwap(used, used+int64(size)) {
			return nil
		}
	}
}

func (a *budget) unreserve(size int) { a.inUse.Add(-int64(size)) }

// A Pool is a share of a device's memory with a budget of its own: the
// buffers allocated from it ([NewBufferIn], [UploadIn]) count against its
// budget and the device's ([Device.SetMemoryBudget]); an allocation
// over either, and a launch whose buffers' allocations from the pool
// hold more than its budget, are refused with an error wrapping
// [ErrBudget] that names the pool. A Pool is safe for concurrent use.
type Pool struct {
	d    *Device
	name string
	budget
}

// NewPool returns a pool of d named name (for errors) with a budget of
// bytes; 0 is none.
func (d *Device) NewPool(name string, bytes int64) (*Pool, error) {
	if err := d.usable("Device.NewPool"); err != nil {
		return nil, err
	}
	p := &Pool{d: d, name: name}
	p.SetBudget(bytes)
	return p, nil
}

// SetBudget sets the pool's budget to bytes, as [Device.SetMemoryBudget]
// does the device's.
func (p *Pool) SetBudget(bytes int64) {
	if p != nil {
		p.budget.budget.Store(max(bytes, 0))
	}
}

// Budget returns the pool's budget; 0 for none.
func (p *Pool) Budget() int64 {
	if p == nil {
		return 0
	}
	return p.budget.budget.Load()
}

// InUse returns the bytes of the pool's live allocations.
func (p *Pool) InUse() int64 {
	if p == nil {
		return 0
	}
	return p.inUse.Load()
}

// Name returns the pool's name.
func (p *Pool) Name() string {
	if p == nil {
		return ""
	}
	return p.name
}

// Device returns the pool's device.
func (p *Pool) Device() *Device {
	if p == nil {
		return nil
	}
	return p.d
}

// checkBudget returns an ErrBudget error when roots, the allocations a
// launch of k binds, each once, hold more than the budget. The caller
// holds the allocations' locks.
func (a *admission) checkBudget(k *Kernel, roots []*bufferState) error {
	if budget := a.budget.budget.Load(); budget != 0 {
		var sum int64
		for _, r := range roots {
			sum += int64(r.bytes)
		}
		if sum > budget {
			return fmt.Errorf("gpu: kernel %s: its buffers' allocations hold %d bytes, over the memory budget of %d: %w",
				k.spec.Name, sum, budget, ErrBudget)
		}
	}
	for i, r := range roots {
		p := r.pool
		if p == nil || p.budget.budget.Load() == 0 || slices.ContainsFunc(roots[:i], func(o *bufferState) bool { return o.pool == p }) {
			continue
		}
		var sum int64
		for _, o := range roots[i:] {
			if o.pool == p {
				sum += int64(o.bytes)
			}
		}
		if b := p.budget.budget.Load(); sum > b {
			return fmt.Errorf("gpu: kernel %s: its buffers' allocations in pool %q hold %d bytes, over its budget of %d: %w",
				k.spec.Name, p.name, sum, b, ErrBudget)
		}
	}
	return nil
}

// admit lets l onto the device: a protected launch (one with a deadline)
// at once, counted until leave; a best-effort one when no protected
// launch is pending, waiting no longer than ctx and the device's wait
// limit allow, or else refused with an error wrapping [ErrTimeout].
func (d *Device) admit(ctx context.Context, l *launch) error {
	a := &d.adm
	if !l.opts.Deadline.IsZero() {
		a.mu.Lock()
		if a.protected.Add(1) == 1 {
			a.clear = make(chan struct{})
		}
		a.mu.Unlock()
		return nil
	}
	if a.protected.Load() == 0 {
		return nil
	}
	a.mu.Lock()
	ch := a.clear
	a.mu.Unlock()
	if ch == nil {
		return nil
	}
	ctx, cancel := d.bound(ctx)
	defer cancel()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("gpu: kernel %s: not launched: waited behind launches with a deadline: %w: %w", l.kernel.Name(), ErrTimeout, ctx.Err())
	}
}

// leave ends a protected launch's admission: it has been submitted, or
// refused.
func (d *Device) leave(l *launch) {
	if l.opts.Deadline.IsZero() {
		return
	}
	a := &d.adm
	a.mu.Lock()
	if a.protected.Add(-1) == 0 {
		close(a.clear)
		a.clear = nil
	}
	a.mu.Unlock()
}
