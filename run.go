package xpu

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Config says how a kernel is launched.
type Config struct {
	Groups Dim3 // blocks in the grid on each axis (zero Y or Z means 1)
	Block  Dim3 // work-items per block on each axis (zero Y or Z means 1)

	// WaveWidth is the lane count of a wave, so that the reference runner
	// agrees lane for lane with the backend it is compared with. Zero
	// means 32.
	WaveWidth uint32

	// RaceCheck says whether the run checks shared memory for races
	// between barriers (see [ErrRace]); the zero value checks in test
	// binaries (testing.Testing) and not elsewhere.
	RaceCheck RaceCheck

	// Goroutines runs every work-item as a goroutine of its own from its
	// start. By default the work-items of a block run in a loop, one
	// after the other, until one reaches a barrier or a wave verb, and
	// only then on goroutines (see [Run]); both give the same results
	// and failures, so this is for measuring or checking the loop against
	// the goroutines.
	Goroutines bool
}

// RaceCheck turns the shared-memory race check of [Run] on or off.
type RaceCheck uint8

const (
	RaceCheckAuto RaceCheck = iota // on in test binaries, off elsewhere
	RaceCheckOn                    // always check
	RaceCheckOff                   // never check
)

// on reports whether the check runs.
func (c RaceCheck) on() bool {
	switch c {
	case RaceCheckOn:
		return true
	case RaceCheckOff:
		return false
	}
	return testing.Testing()
}

// ErrRun is wrapped by every error [Run] returns for a kernel that failed
// while running (an index out of range, an integer division by zero, a
// barrier not reached by every work-item, a shared-memory race, ...).
var ErrRun = errors.New("xpu: kernel failed")

// ErrCall is wrapped by every error [Run] returns for a call that does not
// fit the kernel (wrong argument count or types, empty grid).
var ErrCall = errors.New("xpu: bad kernel call")

// ErrRace is wrapped, with [ErrRun], by the error of a run that found a
// shared-memory race: an element of a shared array written by one
// work-item and read or written by another with no barrier between.
var ErrRace = errors.New("xpu: shared-memory race")

// maxBlock bounds the work-items of one block, as devices do.
const maxBlock = 1024

// Run executes kernel as plain Go. Every work-item calls kernel with its
// own Thread and args; the work-items of a block share its shared arrays,
// barrier and waves, and take turns: one runs at a time, in order of
// LocalIndex, until it reaches a barrier, a wave verb or its end, so that
// a block runs the same way every time. A block runs its work-items as a
// loop, each call to its end, until one reaches a barrier or a wave verb;
// from there on every work-item of the block is a goroutine, which can
// wait, and the block goes on as if they had been from the start (see
// [Config.Goroutines]). So a kernel with neither costs a call per
// work-item and no goroutines, whatever the generator knows of it.
// Blocks run concurrently, at most GOMAXPROCS at a time; with the race
// check on they run one after the other. Run returns when every
// work-item has returned, with the first failure as an error wrapping
// [ErrRun]; a failed block does not stop the others.
//
// args are the kernel's parameters after the Thread, in order, with a
// template's comptime value where its signature has it: slices stand for
// buffers and are shared, not copied. Run calls kernel through
// reflection, which costs more than a small kernel's body, unless it is
// a func(Thread) without args; [RunBound] takes the arguments bound in a
// closure as well and calls that.
//
// Run refuses, with an error naming the rule, what the code generator
// refuses and a run can see: a barrier or wave verb that not every
// work-item of the block (or lane of the wave) reaches, at the same call;
// [Shared] outside the kernel function or called twice at one place.
// With the race check on it also fails with [ErrRace] on a shared-memory
// race, naming the array, the element and the two work-items.
func Run(cfg Config, kernel any, args ...any) error {
	fn := reflect.ValueOf(kernel)
	in, err := callArgs(fn, args)
	if err != nil {
		return err
	}
	direct, _ := kernel.(func(Thread))
	return run(cfg, &launch{fn: fn, in: in, direct: direct, name: funcName(fn.Pointer())})
}

// RunBound is [Run] with the arguments bound in call as well: a
// work-item calls call, which calls kernel with the Thread it is given
// and args and does nothing else, where Run calls kernel through
// reflection. So RunBound(cfg, K, func(t Thread) { K(t, a, b, n) }, a, b,
// n) runs as Run(cfg, K, a, b, n), checked the same (kernel and args
// alone say where [Shared] may be called and which buffers the race
// check saves), but costs a call per work-item.
func RunBound(cfg Config, kernel any, call func(Thread), args ...any) error {
	fn := reflect.ValueOf(kernel)
	in, err := callArgs(fn, args)
	if err != nil {
		return err
	}
	if call == nil {
		return fmt.Errorf("%w: RunBound of %s without a call", ErrCall, funcName(fn.Pointer()))
	}
	return run(cfg, &launch{fn: fn, in: in, direct: call, name: funcName(fn.Pointer())})
}

// run runs l, whose kernel Run or RunBound has set, over cfg's grid.
func run(cfg Config, l *launch) error {
	groups, size := cfg.Groups.Norm(), cfg.Block.Norm()
	if groups.Count() == 0 || size.Count() == 0 {
		return fmt.Errorf("%w: empty grid: %d groups of %d work-items", ErrCall, groups.Count(), size.Count())
	}
	if size.Count() > maxBlock {
		return fmt.Errorf("%w: block of %d work-items exceeds %d", ErrCall, size.Count(), maxBlock)
	}
	l.groups, l.size, l.wave, l.goroutines = groups, size, cmp.Or(cfg.WaveWidth, 32), cfg.Goroutines
	if cfg.RaceCheck.on() {
		return l.runChecked()
	}
	return l.runParallel()
}

// launch is one call of Run.
type launch struct {
	fn           reflect.Value
	in           []reflect.Value // the arguments, with a slot for the Thread at 0
	direct       func(Thread)    // when not nil, what a work-item calls instead of fn with in
	groups, size Dim3
	wave         uint32
	goroutines   bool     // Config.Goroutines
	name         string   // the kernel function's name, as runtime frames spell it
	funcs        sync.Map // call site -> the name of the function it lies in
}

// funcAt returns the name of the function, without type arguments, that
// the call site pc lies in (inlined calls resolved).
func (l *launch) funcAt(pc uintptr) string {
	if f, ok := l.funcs.Load(pc); ok {
		return f.(string)
	}
	fr, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	f := trimTypeArgs(fr.Function)
	l.funcs.Store(pc, f)
	return f
}

// runParallel runs the blocks on GOMAXPROCS goroutines.
func (l *launch) runParallel() error {
	var (
		mu    sync.Mutex
		first error
	)
	next := make(chan Dim3)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				b := l.newBlock(g)
				b.run()
				mu.Lock()
				if first == nil {
					first = b.fail
				}
				mu.Unlock()
			}
		}()
	}
	l.eachGroup(func(g Dim3) { next <- g })
	close(next)
	wg.Wait()
	return first
}

// eachGroup calls f for every block of the grid, in order.
func (l *launch) eachGroup(f func(Dim3)) {
	for z := range l.groups.Z {
		for y := range l.groups.Y {
			for x := range l.groups.X {
				f(Dim3{x, y, z})
			}
		}
	}
}

// funcName returns the name of the function at pc without type
// arguments, as frames and FuncForPC may spell those differently.
func funcName(pc uintptr) string {
	f := runtime.FuncForPC(pc)
	if f == nil {
		return ""
	}
	return trimTypeArgs(f.Name())
}

func trimTypeArgs(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		return name[:i]
	}
	return name
}

// callArgs checks args against the kernel's signature and returns the
// argument list with a slot for the Thread at index 0.
func callArgs(fn reflect.Value, args []any) ([]reflect.Value, error) {
	if fn.Kind() != reflect.Func {
		what := "<nil>" // the zero Value of a nil kernel has no type
		if fn.IsValid() {
			what = fn.Type().String()
		}
		return nil, fmt.Errorf("%w: kernel is a %s, not a function", ErrCall, what)
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
