package xpu

// This file runs one block of a launch: its work-items take turns, one
// at a time in order of LocalIndex, each until it reaches a barrier, a
// wave verb or its end. A scheduler resumes them; it releases a barrier
// when every work-item waits at the same one and completes a wave round
// when every live lane of the wave has arrived, and it refuses, naming
// the rule, a barrier or wave verb that is not reached by all.
//
// Until a work-item first waits, the turns are whole calls of the
// kernel, in order: the block runs them as a loop on its own goroutine
// (loop), with no scheduler. The first work-item to reach a barrier or a
// wave verb hands the block to the scheduler (toScheduler): those before
// it have ended, those after it have not started, so the block is then
// where the scheduler alone would have brought it, and runs on as it
// would have.

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
)

// block is the state the work-items of one block share. Only the
// scheduler or the one work-item it resumed touches it at a time.
type block struct {
	l       *launch
	group   Dim3
	items   []*workItem
	events  chan *workItem // a resumed work-item yields here; nil while the block runs as a loop
	ended   chan struct{}  // closed when a scheduler started by toScheduler returns
	aborted bool           // the block failed: every work-item unwinds
	fail    error          // the block's first failure
	shared  []*sharedArray
	waves   []*waveRound
	race    *raceRun // nil without the race check
}

// itemState is where a work-item is.
type itemState uint8

const (
	itemReady   itemState = iota // may be resumed
	itemRunning                  // resumed, not yet yielded
	itemBarrier                  // waits at a barrier
	itemWave                     // waits in a wave round
	itemDone                     // returned or failed
)

// workItem is the state of one work-item.
type workItem struct {
	group, local Dim3
	index        uint32 // LocalIndex
	blk          *block
	resume       chan struct{}
	state        itemState
	site         uintptr // the barrier or wave verb it waits at
	path         uintptr // and the calls that led there (callPath)
	sharedNext   int
	sharedSites  []uintptr // the xpu.Shared calls it made
	waveIn       []any     // the values of its last wave round
}

// abortSignal unwinds the work-items of a failed block.
type abortSignal struct{}

func (l *launch) newBlock(group Dim3) *block {
	return &block{l: l, group: group}
}

// run runs every work-item of b to its end; b.fail holds the first
// failure.
func (b *block) run() {
	if b.l.goroutines {
		b.startGoroutines(nil)
		b.schedule(0, nil)
	} else {
		b.loop()
	}
	if b.race != nil {
		b.race.finish()
	}
}

// loop runs the work-items one after the other, each to its end, on the
// caller's goroutine, until one waits: then it lets the scheduler that
// work-item's wait started run the block to its end.
func (b *block) loop() {
	in := make([]reflect.Value, len(b.l.in))
	copy(in, b.l.in)
	w := &workItem{group: b.group, blk: b}
	s := b.l.size
	for i := range uint32(s.Count()) {
		w.index = i
		if w.local.X++; i == 0 || w.local.X == s.X { // the next local, in order of LocalIndex
			w.local = b.l.localOf(int32(i))
		}
		w.state, w.sharedNext, w.sharedSites = itemRunning, 0, w.sharedSites[:0]
		if b.race != nil {
			b.race.before(w)
		}
		w.call(in)
		w.state = itemDone
		if b.events != nil { // w waited: the scheduler has the block
			b.events <- w
			<-b.ended
			return
		}
		if b.race != nil {
			b.race.after(w)
		}
	}
}

// toScheduler moves the block from loop to the scheduler when w, the
// work-item loop runs, is about to wait: the work-items before w have
// ended, those after it start as goroutines, and a scheduler on a
// goroutine of its own takes w's yield as the end of its turn.
func (b *block) toScheduler(w *workItem) {
	b.startGoroutines(w)
	b.ended = make(chan struct{})
	go func() {
		defer close(b.ended)
		b.schedule(int(w.index)+1, w)
	}()
}

// startGoroutines makes the block's work-items and starts a goroutine for
// each, but for those up to running: the running one, which goes on as
// it is, and those before it, which have ended. running is nil when none
// has started.
func (b *block) startGoroutines(running *workItem) {
	n := int(b.l.size.Count())
	b.events = make(chan *workItem)
	b.items = make([]*workItem, 0, n)
	first := 0
	if running != nil {
		first = int(running.index)
		for i := range first {
			b.items = append(b.items, &workItem{group: b.group, local: b.l.localOf(int32(i)), index: uint32(i), blk: b, state: itemDone})
		}
		running.resume = make(chan struct{})
		b.items = append(b.items, running)
		first++
	}
	for i := first; i < n; i++ {
		w := &workItem{group: b.group, local: b.l.localOf(int32(i)), index: uint32(i), blk: b, resume: make(chan struct{})}
		b.items = append(b.items, w)
		go w.main()
	}
}

// main is the goroutine of a work-item.
func (w *workItem) main() {
	b := w.blk
	<-w.resume
	if !b.aborted {
		in := make([]reflect.Value, len(b.l.in))
		copy(in, b.l.in)
		w.call(in)
	}
	w.state = itemDone
	b.events <- w
}

// call runs the kernel for w with the arguments in (whose slot 0 it
// sets) until it returns, fails (recorded in the block) or unwinds.
func (w *workItem) call(in []reflect.Value) {
	b := w.blk
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortSignal); !ok {
				b.failAt(w, r)
			}
		}
	}()
	if f := b.l.direct; f != nil {
		f(Thread{w})
		return
	}
	in[0] = reflect.ValueOf(Thread{w})
	b.l.fn.Call(in)
}

// enterScheduler hands the block to the scheduler, if loop still runs it,
// before w waits at a barrier or a wave verb.
func (w *workItem) enterScheduler() {
	if b := w.blk; b.events == nil {
		b.toScheduler(w)
	}
}

// yield hands control back to the scheduler until it resumes w.
func (w *workItem) yield() {
	b := w.blk
	w.enterScheduler()
	b.events <- w
	<-w.resume
	if b.aborted {
		panic(abortSignal{})
	}
}

// schedule resumes ready work-items, lowest LocalIndex first from cur,
// until all are done. running, when not nil, is a work-item already
// resumed, whose turn it ends first.
func (b *block) schedule(cur int, running *workItem) {
	cur %= len(b.items)
	for {
		w := running
		running = nil
		if w == nil {
			if w = b.nextReady(&cur); w == nil {
				if b.settle() {
					continue
				}
				return
			}
			w.state = itemRunning
			if b.race != nil {
				b.race.before(w)
			}
			w.resume <- struct{}{}
		}
		<-b.events
		if b.race != nil {
			b.race.after(w)
		}
		switch w.state {
		case itemWave:
			b.arrive(w)
		case itemDone:
			b.leave(w)
		}
	}
}

// nextReady returns the first ready work-item at or after *cur, wrapping
// around, and moves *cur past it; nil when none is ready.
func (b *block) nextReady(cur *int) *workItem {
	n := len(b.items)
	for i := range n {
		w := b.items[(*cur+i)%n]
		if w.state == itemReady {
			*cur = (*cur + i + 1) % n
			return w
		}
	}
	return nil
}

// settle is called when no work-item is ready. It releases a barrier
// that every work-item waits at, or fails the block when they wait at
// different places, and reports whether work-items are ready again;
// false when all are done.
func (b *block) settle() bool {
	var waiting, done, wave *workItem
	for _, w := range b.items {
		switch w.state {
		case itemBarrier:
			if waiting == nil {
				waiting = w
			} else if w.path != waiting.path && !b.aborted {
				b.abort(ruleErr(ruleBarrier, "work-items wait at different barriers: local %v at %s, local %v at %s",
					waiting.local, siteOf(waiting.site), w.local, siteOf(w.site)))
				return true
			}
		case itemWave:
			wave = w
		case itemDone:
			if done == nil {
				done = w
			}
		}
	}
	switch {
	case waiting == nil && wave == nil:
		return false
	case wave != nil && !b.aborted:
		b.abort(ruleErr(ruleWave, "local %v waits at a wave verb that other lanes of its wave do not reach", wave.local))
		return true
	case done != nil && !b.aborted:
		b.abort(ruleErr(ruleBarrier, "the barrier at %s is reached by some work-items but not by local %v, which returned",
			siteOf(waiting.site), done.local))
		return true
	case b.aborted:
		b.abort(nil)
		return true
	}
	if b.race != nil {
		b.race.barrier()
	}
	for _, w := range b.items {
		w.state = itemReady
	}
	return true
}

// abort fails the block with err (unless it failed before) and readies
// every waiting work-item, which then unwinds.
func (b *block) abort(err error) {
	if err != nil && b.fail == nil {
		b.fail = fmt.Errorf("%w: %s: group %v: %w", ErrRun, b.l.name, b.group, err)
	}
	b.aborted = true
	for _, w := range b.items {
		if w.state == itemBarrier || w.state == itemWave {
			w.state = itemReady
		}
	}
}

// failAt records the failure r of work-item w.
func (b *block) failAt(w *workItem, r any) {
	if b.fail != nil {
		return
	}
	if err, ok := r.(error); ok {
		b.fail = fmt.Errorf("%w: %s: group %v, local %v: %w", ErrRun, b.l.name, w.group, w.local, err)
		return
	}
	b.fail = fmt.Errorf("%w: %s: group %v, local %v: %v", ErrRun, b.l.name, w.group, w.local, r)
}

// The rules of the kernel language a run can see broken, named as the
// code generator names them.
const (
	ruleBarrier = "xpu-barrier-nonuniform"
	ruleWave    = "xpu-wave-nonuniform"
	ruleShared  = "xpu-shared-placement"
	ruleRace    = "xpu-shared-race"
)

// ruleError is a broken rule of the kernel language.
type ruleError struct {
	rule, msg string
	is        error // a sentinel it wraps, or nil
}

func (e *ruleError) Error() string { return "[" + e.rule + "] " + e.msg }
func (e *ruleError) Unwrap() error { return e.is }

func ruleErr(rule, format string, args ...any) error {
	return &ruleError{rule: rule, msg: fmt.Sprintf(format, args...)}
}

// siteOf spells a call site as file:line.
func siteOf(pc uintptr) string {
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if f.File == "" {
		return "an unknown place"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
}
