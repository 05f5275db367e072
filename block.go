package xpu

// This file runs one block of a launch: its work-items take turns, one
// at a time in order of LocalIndex, each until it reaches a barrier, a
// wave verb or its end. A scheduler resumes them; it releases a barrier
// when every work-item waits at the same one and completes a wave round
// when every live lane of the wave has arrived, and it refuses, naming
// the rule, a barrier or wave verb that is not reached by all.

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
	events  chan *workItem // a resumed work-item yields here
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
	return &block{l: l, group: group, events: make(chan *workItem)}
}

// run runs every work-item of b to its end; b.fail holds the first
// failure.
func (b *block) run() {
	s := b.l.size
	n := int(s.Count())
	b.items = make([]*workItem, 0, n)
	for z := range s.Z {
		for y := range s.Y {
			for x := range s.X {
				w := &workItem{group: b.group, local: Dim3{x, y, z}, index: uint32(len(b.items)), blk: b, resume: make(chan struct{})}
				b.items = append(b.items, w)
				go w.main()
			}
		}
	}
	b.schedule()
	if b.race != nil {
		b.race.finish()
	}
}

// main is the goroutine of a work-item.
func (w *workItem) main() {
	b := w.blk
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abortSignal); !ok {
				b.failAt(w, r)
			}
		}
		w.state = itemDone
		b.events <- w
	}()
	<-w.resume
	if b.aborted {
		return
	}
	in := make([]reflect.Value, len(b.l.in))
	copy(in, b.l.in)
	in[0] = reflect.ValueOf(Thread{w})
	b.l.fn.Call(in)
}

// yield hands control back to the scheduler until it resumes w.
func (w *workItem) yield() {
	b := w.blk
	b.events <- w
	<-w.resume
	if b.aborted {
		panic(abortSignal{})
	}
}

// schedule resumes ready work-items, lowest LocalIndex first from where
// the last one stopped, until all are done.
func (b *block) schedule() {
	cur := 0
	for {
		w := b.nextReady(&cur)
		if w == nil {
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
