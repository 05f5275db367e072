package xpu

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
)

// Config says how a kernel is launched.
type Config struct {
	Groups Dim3 // blocks in the grid on each axis (zero Y or Z means 1)
	Block  Dim3 // work-items per block on each axis (zero Y or Z means 1)

	// WaveWidth is the lane count of a wave, so that the reference runner
	// agrees lane for lane with the backend it is compared with. Zero
	// means 32.
	WaveWidth uint32
}

// ErrRun is wrapped by every error [Run] returns for a kernel that failed
// while running (an index out of range, an integer division by zero, ...).
var ErrRun = errors.New("xpu: kernel failed")

// ErrCall is wrapped by every error [Run] returns for a call that does not
// fit the kernel (wrong argument count or types, empty grid).
var ErrCall = errors.New("xpu: bad kernel call")

// maxBlock bounds the work-items of one block, as devices do.
const maxBlock = 1024

// Run executes kernel as plain Go: every work-item of every block is a
// goroutine that calls kernel with its own Thread and args; the work-items
// of a block share its shared arrays and barrier; blocks run concurrently,
// at most GOMAXPROCS at a time. It returns when every work-item has
// returned, with the first failure of any work-item as an error wrapping
// [ErrRun]; a failed block does not stop the others.
//
// args are the kernel's parameters after the Thread: slices stand for
// buffers and are shared, not copied.
func Run(cfg Config, kernel any, args ...any) error {
	fn := reflect.ValueOf(kernel)
	in, err := callArgs(fn, args)
	if err != nil {
		return err
	}
	groups, size := cfg.Groups.Norm(), cfg.Block.Norm()
	if groups.Count() == 0 || size.Count() == 0 {
		return fmt.Errorf("%w: empty grid: %d groups of %d work-items", ErrCall, groups.Count(), size.Count())
	}
	if size.Count() > maxBlock {
		return fmt.Errorf("%w: block of %d work-items exceeds %d", ErrCall, size.Count(), maxBlock)
	}
	wave := cfg.WaveWidth
	if wave == 0 {
		wave = 32
	}
	name := runtime.FuncForPC(fn.Pointer()).Name()

	var (
		mu    sync.Mutex
		first error
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	next := make(chan Dim3)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				runBlock(fn, in, &block{groups: groups, size: size, wave: wave}, g, name, fail)
			}
		}()
	}
	for z := range groups.Z {
		for y := range groups.Y {
			for x := range groups.X {
				next <- Dim3{x, y, z}
			}
		}
	}
	close(next)
	wg.Wait()
	return first
}

// callArgs checks args against the kernel's signature and returns the
// argument list with a slot for the Thread at index 0.
func callArgs(fn reflect.Value, args []any) ([]reflect.Value, error) {
	if fn.Kind() != reflect.Func {
		return nil, fmt.Errorf("%w: kernel is a %T, not a function", ErrCall, fn.Interface())
	}
	ft := fn.Type()
	if ft.NumIn() == 0 || ft.In(0) != reflect.TypeFor[Thread]() {
		return nil, fmt.Errorf("%w: the first parameter of a kernel must be xpu.Thread", ErrCall)
	}
	if ft.IsVariadic() || ft.NumOut() != 0 {
		return nil, fmt.Errorf("%w: a kernel is not variadic and returns nothing", ErrCall)
	}
	if len(args) != ft.NumIn()-1 {
		return nil, fmt.Errorf("%w: kernel takes %d arguments after the Thread, got %d", ErrCall, ft.NumIn()-1, len(args))
	}
	in := make([]reflect.Value, ft.NumIn())
	for i, a := range args {
		want := ft.In(i + 1)
		v := reflect.ValueOf(a)
		if !v.IsValid() || !v.Type().AssignableTo(want) {
			return nil, fmt.Errorf("%w: argument %d is %T, kernel wants %v", ErrCall, i+1, a, want)
		}
		in[i+1] = v
	}
	return in, nil
}

// block is the state the work-items of one block share.
type block struct {
	groups, size Dim3
	wave         uint32
	bar          barrier
	mu           sync.Mutex
	shared       []any
	waves        []*waveSync // made on first use by waveOf
}

// workItem is the state of one work-item.
type workItem struct {
	group, local Dim3
	blk          *block
	sharedNext   int
}

func runBlock(fn reflect.Value, proto []reflect.Value, b *block, group Dim3, name string, fail func(error)) {
	n := int(b.size.Count())
	b.bar.init(n)
	var wg sync.WaitGroup
	wg.Add(n)
	for z := range b.size.Z {
		for y := range b.size.Y {
			for x := range b.size.X {
				w := &workItem{group: group, local: Dim3{x, y, z}, blk: b}
				go func() {
					defer wg.Done()
					defer b.bar.leave()
					defer b.waveOf(w.local.X + w.local.Y*b.size.X + w.local.Z*b.size.X*b.size.Y).leave()
					defer func() {
						if r := recover(); r != nil {
							fail(fmt.Errorf("%w: %s: group %v, local %v: %v", ErrRun, name, w.group, w.local, r))
						}
					}()
					in := make([]reflect.Value, len(proto))
					copy(in, proto)
					in[0] = reflect.ValueOf(Thread{w})
					fn.Call(in)
				}()
			}
		}
	}
	wg.Wait()
}

// barrier is a reusable barrier for the live work-items of a block. A
// work-item that returns leaves it, so the others are not held by it.
type barrier struct {
	mu      sync.Mutex
	cond    sync.Cond
	live    int
	arrived int
	gen     uint64
}

func (b *barrier) init(n int) {
	b.cond.L = &b.mu
	b.live = n
}

func (b *barrier) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.arrived++
	if b.arrived >= b.live {
		b.release()
		return
	}
	for gen := b.gen; gen == b.gen; {
		b.cond.Wait()
	}
}

func (b *barrier) leave() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.live--
	if b.arrived > 0 && b.arrived >= b.live {
		b.release()
	}
}

func (b *barrier) release() {
	b.arrived = 0
	b.gen++
	b.cond.Broadcast()
}
