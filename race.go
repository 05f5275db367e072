package xpu

// This file is the reference runner's race check: it finds an element of
// a shared array that one work-item writes and another reads or writes
// with no barrier between.
//
// Shared arrays are plain slices, so a run sees writes (by comparing an
// array before and after each turn of a work-item) but not reads. The
// check therefore runs each block twice from the same buffers. The first
// run records, per barrier interval, which work-item wrote which element;
// two writers of one element are a write/write race. The second run shows
// each work-item, for each element another work-item writes in the
// interval, the other value: the one from before that write if the first
// run showed it the written one, and the written one otherwise. A kernel
// without races reads no such element, so both runs do the same; when
// they differ (in what is written to shared memory or buffers), runs that
// show the other value for fewer elements, then for fewer readers, find
// the element and the reader. Atomics are not races: an array touched by
// an atomic is left out.

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// sharedArray is one shared array of a block.
type sharedArray struct {
	slice  any    // the []T
	raw    []byte // its bytes
	elem   int    // bytes per unit the check watches: the smallest scalar of an element
	typ    reflect.Type
	per    int // units per element
	index  int // its place among the block's xpu.Shared calls
	site   uintptr
	desc   string // e.g. "float32[128]"
	atomic atomic.Bool
}

func newSharedArray[T any](b *block, k, n int, site uintptr) *sharedArray {
	s := make([]T, n)
	t := reflect.TypeFor[T]()
	// Work-items may write distinct scalars of one element (a row of a
	// tile, the fields of a struct) between barriers: the check watches
	// the smallest scalar the element holds.
	a := &sharedArray{slice: s, elem: leastScalar(t), per: 1, index: k, site: site,
		typ: t, desc: fmt.Sprintf("%v[%d]", t, n)}
	if a.elem > 0 && n > 0 {
		a.per = int(t.Size()) / a.elem
		a.raw = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n*int(t.Size()))
	}
	if b.race != nil {
		b.race.add(a)
	}
	return a
}

// at names the unit idx of a: its element, and the scalar of an array
// element (in row-major order) or the field of a struct element.
func (a *sharedArray) at(idx int32) string {
	if a.per == 1 {
		return fmt.Sprintf("element %d", idx)
	}
	e, k := int(idx)/a.per, int(idx)%a.per
	inner := a.typ
	for inner.Kind() == reflect.Array {
		inner = inner.Elem()
	}
	if inner.Kind() != reflect.Struct {
		return fmt.Sprintf("element %d, scalar %d of it,", e, k)
	}
	return fmt.Sprintf("element %d, %s of it,", e, scalarAt(a.typ, k*a.elem))
}

// leastScalar is the size of the smallest scalar in t, through arrays
// and struct fields; 0 for a type that holds none.
func leastScalar(t reflect.Type) int {
	switch t.Kind() {
	case reflect.Array:
		if t.Len() == 0 {
			return 0
		}
		return leastScalar(t.Elem())
	case reflect.Struct:
		least := 0
		for i := range t.NumField() {
			if n := leastScalar(t.Field(i).Type); n > 0 && (least == 0 || n < least) {
				least = n
			}
		}
		return least
	}
	return int(t.Size())
}

// scalarAt names the scalar of t at byte off as Go spells its selector:
// "field Pos[1]", or "field [2].X" in an array of structs.
func scalarAt(t reflect.Type, off int) string {
	path := ""
	for {
		switch t.Kind() {
		case reflect.Array:
			size := int(t.Elem().Size())
			path += fmt.Sprintf("[%d]", off/size)
			t, off = t.Elem(), off%size
			continue
		case reflect.Struct:
			found := false
			for i := range t.NumField() {
				f := t.Field(i)
				if off >= int(f.Offset) && off < int(f.Offset+f.Type.Size()) {
					path += "." + f.Name
					t, off, found = f.Type, off-int(f.Offset), true
					break
				}
			}
			if !found { // Go never writes padding; named for completeness
				return "padding" + path
			}
			continue
		}
		return "field " + strings.TrimPrefix(path, ".")
	}
}

// atomicWatch holds the shared arrays of the blocks being checked, so that
// an atomic on one of their elements marks the array atomic.
var atomicWatch struct {
	n      atomic.Int32
	mu     sync.RWMutex
	arrays map[*sharedArray]struct{}
}

func watch(a *sharedArray) {
	atomicWatch.mu.Lock()
	defer atomicWatch.mu.Unlock()
	if atomicWatch.arrays == nil {
		atomicWatch.arrays = make(map[*sharedArray]struct{})
	}
	atomicWatch.arrays[a] = struct{}{}
	atomicWatch.n.Store(int32(len(atomicWatch.arrays)))
}

func unwatch(as []*sharedArray) {
	atomicWatch.mu.Lock()
	defer atomicWatch.mu.Unlock()
	for _, a := range as {
		delete(atomicWatch.arrays, a)
	}
	atomicWatch.n.Store(int32(len(atomicWatch.arrays)))
}

// noteAtomic marks the watched shared array that holds p, if any, atomic.
func noteAtomic(p unsafe.Pointer) {
	if atomicWatch.n.Load() == 0 {
		return
	}
	u := uintptr(p)
	atomicWatch.mu.RLock()
	defer atomicWatch.mu.RUnlock()
	for a := range atomicWatch.arrays {
		if base := uintptr(unsafe.Pointer(unsafe.SliceData(a.raw))); u >= base && u < base+uintptr(len(a.raw)) {
			a.atomic.Store(true)
		}
	}
}

// write is the first write of a work-item to an element in an interval.
type write struct {
	arr, idx int32
	wi       int32 // the writer's LocalIndex
	seg      int32 // the turn it wrote in
}

// conflict is an element written by two work-items in one interval.
type conflict struct {
	interval int
	arr, idx int32
	a, b     int32
}

// undo restores an element the second run showed another value of:
// old is at [at, at+n) of the run's arena.
type undo struct {
	arr, off, at int
	set          []byte
}

// raceRun is the race check's record of one run of a block.
type raceRun struct {
	b     *block
	ref   *raceRun                           // the first run, when this run shows other values
	allow func(interval, k, reader int) bool // which values it shows; nil: all

	last      [][]byte  // per array: its contents after the last turn
	owner     [][]int32 // per array element: its writer in this interval, or -1
	seg       int32     // turns so far
	interval  int
	writes    []write
	logs      [][]write  // the writes of each finished interval
	snaps     [][][]byte // snaps[j]: the arrays at the start of interval j (missing: zeros)
	conflicts []conflict
	hash      uint64 // of every turn's writes and yield
	cur       *workItem
	undos     []undo
	arena     []byte
}

func newRaceRun(b *block, ref *raceRun, allow func(int, int, int) bool) *raceRun {
	return &raceRun{b: b, ref: ref, allow: allow, snaps: [][][]byte{nil}, hash: 14695981039346656037}
}

// mix folds x into the run's hash, a word at a time: it runs at every
// turn, so it costs a multiply, not one per byte.
func (r *raceRun) mix(x uint64) {
	h := (r.hash ^ x) * 0x9e3779b97f4a7c15
	r.hash = h ^ h>>31
}

// add starts recording a new shared array of the block.
func (r *raceRun) add(a *sharedArray) {
	r.last = append(r.last, make([]byte, len(a.raw)))
	own := make([]int32, len(a.raw)/max(a.elem, 1))
	for i := range own {
		own[i] = -1
	}
	r.owner = append(r.owner, own)
	watch(a)
	if r.cur != nil {
		r.show(r.cur, a)
	}
}

// before prepares the turn of w.
func (r *raceRun) before(w *workItem) {
	r.cur = w
	for _, a := range r.b.shared {
		r.show(w, a)
	}
}

// show sets, for w's turn in the second run, the elements of array arr
// that another work-item writes in this interval to their other value.
func (r *raceRun) show(w *workItem, a *sharedArray) {
	arr := a.index
	if r.ref == nil || r.interval >= len(r.ref.logs) || arr >= len(r.ref.b.shared) || r.ref.isAtomic(arr) {
		return
	}
	for k, u := range r.ref.logs[r.interval] {
		if int(u.arr) != arr || u.wi == int32(w.index) || (r.allow != nil && !r.allow(r.interval, k, int(w.index))) {
			continue
		}
		j := r.interval + 1 // w saw the value from before the write: show the written one
		if u.seg < r.seg {
			j = r.interval // w saw the written value: show the one from before
		}
		off := int(u.idx) * a.elem
		val := r.ref.snapAt(j, arr, off, a.elem)
		cur := a.raw[off : off+a.elem]
		if bytes.Equal(cur, val) {
			continue
		}
		r.undos = append(r.undos, undo{arr: arr, off: off, at: len(r.arena), set: val})
		r.arena = append(r.arena, cur...)
		copy(cur, val)
		copy(r.last[arr][off:], val)
	}
}

// snapAt returns the bytes at off of array arr at the start of interval j.
func (r *raceRun) snapAt(j, arr, off, n int) []byte {
	if j < len(r.snaps) && arr < len(r.snaps[j]) {
		return r.snaps[j][arr][off : off+n]
	}
	if n <= len(zeros) {
		return zeros[:n]
	}
	return make([]byte, n)
}

// zeros is the start of a fresh shared array, for elements up to its size.
var zeros [64]byte

func (r *raceRun) isAtomic(arr int) bool { return r.b.shared[arr].atomic.Load() }

// after records the writes of w's turn that just ended.
func (r *raceRun) after(w *workItem) {
	for i, a := range r.b.shared {
		r.diff(w, i, a)
	}
	for _, u := range r.undos { // put back what w did not overwrite
		cur := r.b.shared[u.arr].raw[u.off : u.off+len(u.set)]
		if bytes.Equal(cur, u.set) {
			old := r.arena[u.at : u.at+len(u.set)]
			copy(cur, old)
			copy(r.last[u.arr][u.off:], old)
		}
	}
	r.undos, r.arena = r.undos[:0], r.arena[:0]
	r.mix(uint64(r.seg)<<32 | uint64(w.index))
	r.mix(uint64(w.state)<<56 | uint64(w.site))
	r.seg++
	r.cur = nil
}

// diff finds the elements of a that changed in w's turn.
func (r *raceRun) diff(w *workItem, arr int, a *sharedArray) {
	last, e := r.last[arr], a.elem
	if e == 0 {
		return
	}
	chunk := e * 16
	for lo := 0; lo < len(a.raw); lo += chunk {
		hi := min(lo+chunk, len(a.raw))
		if bytes.Equal(a.raw[lo:hi], last[lo:hi]) {
			continue
		}
		for off := lo; off < hi; off += e {
			if !bytes.Equal(a.raw[off:off+e], last[off:off+e]) {
				copy(last[off:off+e], a.raw[off:off+e])
				r.wrote(w, arr, off/e, a.raw[off:off+e])
			}
		}
	}
}

// wrote records that w wrote v to element idx of array arr.
func (r *raceRun) wrote(w *workItem, arr, idx int, v []byte) {
	r.mix(uint64(arr)<<32 | uint64(idx))
	for _, c := range v {
		r.mix(uint64(c))
	}
	own := &r.owner[arr][idx]
	switch {
	case *own < 0:
		*own = int32(w.index)
		r.writes = append(r.writes, write{arr: int32(arr), idx: int32(idx), wi: int32(w.index), seg: r.seg})
	case *own != int32(w.index):
		r.conflicts = append(r.conflicts, conflict{interval: r.interval, arr: int32(arr), idx: int32(idx), a: *own, b: int32(w.index)})
	}
}

// barrier ends an interval.
func (r *raceRun) barrier() {
	for _, u := range r.writes {
		r.owner[u.arr][u.idx] = -1
	}
	r.logs = append(r.logs, r.writes)
	r.writes = nil
	snap := make([][]byte, len(r.last))
	for i, l := range r.last {
		snap[i] = bytes.Clone(l)
	}
	r.snaps = append(r.snaps, snap)
	r.interval++
	r.mix(1 << 63)
}

// finish ends the last interval when the block is done.
func (r *raceRun) finish() {
	r.barrier()
	unwatch(r.b.shared)
}

// wroteShared reports whether the run wrote any shared array.
func (r *raceRun) wroteShared() bool {
	for _, l := range r.logs {
		if len(l) > 0 {
			return true
		}
	}
	return false
}

// conflict returns the first write/write race on an array no atomic
// touched, or nil.
func (r *raceRun) conflict() error {
	for _, c := range r.conflicts {
		if r.isAtomic(int(c.arr)) {
			continue
		}
		a := r.b.shared[c.arr]
		return r.b.l.raceError(r.b.group, ruleErr(ruleRace, "shared array #%d (%s, requested at %s): %s is written by local %v and by local %v with no barrier between (after %d barriers)",
			a.index, a.desc, siteOf(a.site), a.at(c.idx), r.b.l.localOf(c.a), r.b.l.localOf(c.b), c.interval))
	}
	return nil
}

// raceError wraps a race found in block g.
func (l *launch) raceError(g Dim3, err error) error {
	err.(*ruleError).is = ErrRace
	return fmt.Errorf("%w: %s: group %v: %w", ErrRun, l.name, g, err)
}

// localOf returns the local coordinates of the work-item at LocalIndex i.
func (l *launch) localOf(i int32) Dim3 {
	u, s := uint32(i), l.size
	return Dim3{u % s.X, u / s.X % s.Y, u / (s.X * s.Y)}
}

// runChecked runs the blocks one after the other, each checked for races.
// The buffers are copied before each block so that it can run again,
// until a block requests no shared array: xpu.Shared sits at the top of
// the kernel body, so then no block does.
func (l *launch) runChecked() error {
	mem := l.buffers()
	usesShared := true
	var first error
	l.eachGroup(func(g Dim3) {
		var pre [][]byte
		if usesShared && first == nil {
			pre = mem.snapshot()
		}
		a := l.newBlock(g)
		a.race = newRaceRun(a, nil, nil)
		a.run()
		usesShared = len(a.shared) > 0
		switch {
		case first != nil:
			return
		case a.fail != nil:
			first = a.fail
			return
		}
		if first = a.race.conflict(); first == nil && pre != nil && a.race.wroteShared() {
			first = l.checkReads(g, a.race, mem, pre)
		}
	})
	return first
}

// checkReads runs block g again, showing each work-item the other value
// of the elements others write in each interval, and returns the race it
// finds, if any. mem holds the buffers after the first run, pre before.
func (l *launch) checkReads(g Dim3, ref *raceRun, mem buffers, pre [][]byte) error {
	post := mem.snapshot()
	diverges := func(allow func(int, int, int) bool) bool {
		mem.restore(pre)
		b := l.newBlock(g)
		b.race = newRaceRun(b, ref, allow)
		b.run()
		return b.fail != nil || b.race.hash != ref.hash || !mem.equal(post)
	}
	if !diverges(nil) {
		return nil
	}
	defer mem.restore(post)
	type unit struct{ j, k int }
	var units []unit
	for j, log := range ref.logs {
		for k, u := range log {
			if !ref.isAtomic(int(u.arr)) {
				units = append(units, unit{j, k})
			}
		}
	}
	found := bisect(units, func(part []unit) bool {
		in := make(map[unit]bool, len(part))
		for _, u := range part {
			in[u] = true
		}
		return diverges(func(j, k, _ int) bool { return in[unit{j, k}] })
	})
	if len(found) == 1 {
		u := found[0]
		w := ref.logs[u.j][u.k]
		var readers []int
		for i := range int(l.size.Count()) {
			if i != int(w.wi) {
				readers = append(readers, i)
			}
		}
		rd := bisect(readers, func(part []int) bool {
			in := make(map[int]bool, len(part))
			for _, i := range part {
				in[i] = true
			}
			return diverges(func(j, k, reader int) bool { return j == u.j && k == u.k && in[reader] })
		})
		if len(rd) == 1 {
			a := ref.b.shared[w.arr]
			return l.raceError(g, ruleErr(ruleRace, "shared array #%d (%s, requested at %s): %s is written by local %v and read by local %v with no barrier between (after %d barriers)",
				a.index, a.desc, siteOf(a.site), a.at(w.idx), l.localOf(w.wi), l.localOf(int32(rd[0])), u.j))
		}
	}
	return l.raceError(g, ruleErr(ruleRace, "work-items read shared-memory elements that other work-items write with no barrier between (the results change with the order of their accesses; no single element explains it)"))
}

// bisect narrows set, for which bad holds, to one element for which it
// holds, halving; it stops early and returns what it has when neither
// half alone is bad.
func bisect[T any](set []T, bad func([]T) bool) []T {
	for len(set) > 1 {
		h := len(set) / 2
		switch {
		case bad(set[:h]):
			set = set[:h]
		case bad(set[h:]):
			set = set[h:]
		default:
			return set
		}
	}
	return set
}

// buffers are the bytes of a launch's slice arguments.
type buffers [][]byte

func (l *launch) buffers() buffers {
	var m buffers
	for _, v := range l.in[1:] {
		if v.Kind() == reflect.Slice && v.Len() > 0 && v.Type().Elem().Size() > 0 {
			m = append(m, unsafe.Slice((*byte)(v.UnsafePointer()), v.Len()*int(v.Type().Elem().Size())))
		}
	}
	return m
}

func (m buffers) snapshot() [][]byte {
	s := make([][]byte, len(m))
	for i, b := range m {
		s[i] = bytes.Clone(b)
	}
	return s
}

func (m buffers) restore(s [][]byte) {
	for i, b := range m {
		copy(b, s[i])
	}
}

func (m buffers) equal(s [][]byte) bool {
	for i, b := range m {
		if !bytes.Equal(b, s[i]) {
			return false
		}
	}
	return true
}
