//go:build (linux || darwin) && (amd64 || arm64)

package cpu

// This file runs a launch at the host tier: the kernel's entry in its
// shared object (see schema/host.go), called once per chunk of blocks on
// each worker, with the Go memory it reads pinned for the calls.

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/schema"
)

// runHost runs every block of groups through prog's host entry with the
// buffers mem and the uniform block u, and returns the first fault of any
// block after every block has run, as the Go tier does. When ctx is done
// first, the entry sees its stop word at its next block or loop
// iteration, and runHost returns the error the Go tier returns.
func (p *pool) runHost(ctx context.Context, prog *program, groups xpu.Dim3, mem [][]byte, uniforms []byte) error {
	total := groups.Count()
	items := uint64(prog.k.Block.Count())
	workers, chunk := p.plan(total, max(prog.leastItems()/items, 1))
	f := newHostFrame(len(mem), workers, uniforms)
	var pin runtime.Pinner
	pin.Pin(unsafe.SliceData(f.words))
	defer pin.Unpin()
	for i, m := range mem {
		// The buffers are pinned for their lives (device.NewBuffer).
		f.bufs[i] = schema.HostBuffer{Base: address(m), Bytes: uint64(len(m))}
	}
	stop := f.stop
	if ctx.Done() != nil {
		defer context.AfterFunc(ctx, func() { atomic.StoreUint32(stop, 1) })()
	}
	proto := schema.HostLaunch{
		Groups:   [3]uint32{groups.X, groups.Y, groups.Z},
		Wave:     prog.wave,
		Uniforms: address(f.u),
		Buffers:  uintptr(unsafe.Pointer(unsafe.SliceData(f.bufs))),
		Stop:     uintptr(unsafe.Pointer(stop)),
	}
	ws := f.ws
	for w := range ws {
		ws[w].launch = proto
		ws[w].launch.Fault = uintptr(unsafe.Pointer(&ws[w].fault))
	}

	var (
		stopped atomic.Bool
		first   firstError
	)
	p.spread(total, workers, chunk, func(w int, lo, hi uint64) bool {
		for lo < hi {
			start := time.Now()
			r, _, _ := purego.SyscallN(prog.host, uintptr(unsafe.Pointer(&ws[w].launch)), uintptr(lo), uintptr(hi))
			code := uint32(r) // the entry returns a uint32; the register's upper half is unspecified
			switch {
			case code == schema.HostOK:
				prog.noteCost(time.Since(start), (hi-lo)*items)
				return true
			case code == schema.HostStopped && atomic.LoadUint32(stop) != 0:
				stopped.Store(true)
				return false
			}
			f := ws[w].fault
			first.set(faultError(prog.k, code, &f, mem))
			// Go on after the block that faulted, as the Go tier does; a
			// fault outside the range ends it, so that bad code cannot
			// make this loop spin.
			b, ok := linearBlock(f.Group, groups)
			if !ok || b < lo || b >= hi || !isFault(code) {
				return true
			}
			lo = b + 1
		}
		return true
	})
	runtime.KeepAlive(mem)
	if stopped.Load() {
		return stoppedError(ctx)
	}
	return first.err
}

// hostChunkItems is the fewest work-items a call of a host entry runs,
// where a launch has them, until a call has measured the entry's cost: a
// call into native code costs about a microsecond (the pinned launch,
// the switch to the system stack), which 16Ki work-items of the lightest
// kernel outlast.
const hostChunkItems = 16 << 10

// hostShare is the least work a call of a host entry is given once its
// cost is measured: a helper woken for less, and the data it works on
// moved to its core, cost more than they save (on the 2-core VM of
// docs/standing.md, a 32Ki-element saxpy in cache, about 4 us of work,
// took 6.7 us a launch on two workers and 4.0 on one).
const hostShare = 10 * time.Microsecond

// leastItems returns the fewest work-items a call of prog's entry runs:
// hostShare of work at its measured cost per work-item, or
// hostChunkItems before a call has measured it. A heavy kernel's small
// launch is so spread over the workers, and a light kernel's launch that
// a helper would not repay runs on the caller alone.
func (prog *program) leastItems() uint64 {
	ns := math.Float64frombits(prog.itemNs.Load())
	if ns <= 0 {
		return hostChunkItems
	}
	return uint64(min(max(float64(hostShare.Nanoseconds())/ns, 1), 1<<40))
}

// noteCost records that a call of prog's entry ran items work-items in
// d: the latest call's cost per work-item is the one leastItems uses.
func (prog *program) noteCost(d time.Duration, items uint64) {
	if items > 0 && d > 0 {
		prog.itemNs.Store(math.Float64bits(float64(d.Nanoseconds()) / float64(items)))
	}
}

// hostFrame is the memory a launch's entry calls read and write besides
// the buffers: each worker's launch record and fault, the buffer table,
// the stop word and the uniform block. It is one allocation of words, so
// that one pin serves a launch: pins were a third of a small launch's
// cost. None of it holds a Go pointer: addresses are uintptrs.
type hostFrame struct {
	words []uint64
	ws    []hostWorker
	bufs  []schema.HostBuffer // never empty, so that it has an address
	stop  *uint32
	u     []byte // the uniform block, copied: the caller may reuse its own
}

// newHostFrame lays out a frame for a launch of workers workers over
// buffers buffers and the uniform block uniforms.
func newHostFrame(buffers, workers int, uniforms []byte) hostFrame {
	const word = 8
	wsBytes := workers * int(unsafe.Sizeof(hostWorker{}))
	bufBytes := max(buffers, 1) * int(unsafe.Sizeof(schema.HostBuffer{}))
	uOff := wsBytes + bufBytes + word // the stop word, then the uniforms
	words := make([]uint64, (uOff+len(uniforms)+word-1)/word)
	at := func(off int) unsafe.Pointer { return unsafe.Pointer(&words[off/word]) }
	f := hostFrame{
		words: words,
		ws:    unsafe.Slice((*hostWorker)(at(0)), workers),
		bufs:  unsafe.Slice((*schema.HostBuffer)(at(wsBytes)), max(buffers, 1)),
		stop:  (*uint32)(at(wsBytes + bufBytes)),
	}
	if len(uniforms) > 0 {
		f.u = unsafe.Slice((*byte)(at(uOff)), len(uniforms))
		copy(f.u, uniforms)
	}
	return f
}

// address returns the address of b's first byte, or 0 for an empty b.
func address(b []byte) uintptr {
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

// hostWorker is what one worker's calls of the entry read and write: its
// launch, and the fault the entry reports there; one allocation, pinned
// once, for both.
type hostWorker struct {
	launch schema.HostLaunch
	fault  schema.HostFault
}

// isFault reports whether code is a fault of a block, after which the
// entry may be called again for the blocks after it.
func isFault(code uint32) bool {
	switch code {
	case schema.HostFaultIndex, schema.HostFaultDivZero, schema.HostFaultNegativeShift, schema.HostFaultBarrier:
		return true
	}
	return false
}

// linearBlock returns the place of block g in the linear order of a grid
// of groups (X fastest); ok is false when g lies outside the grid.
func linearBlock(g [3]uint32, groups xpu.Dim3) (uint64, bool) {
	if g[0] >= groups.X || g[1] >= groups.Y || g[2] >= groups.Z {
		return 0, false
	}
	return uint64(g[0]) + uint64(groups.X)*(uint64(g[1])+uint64(groups.Y)*uint64(g[2])), true
}

// faultError describes the fault f of kernel k, whose entry returned
// code with the buffers mem bound, as the Go tier names a failed block:
// "group {x y z}: " and what went wrong.
func faultError(k *schema.Kernel, code uint32, f *schema.HostFault, mem [][]byte) error {
	at := fmt.Sprintf("group %v: work-item %v", xpu.Dim3{X: f.Group[0], Y: f.Group[1], Z: f.Group[2]},
		xpu.Dim3{X: f.Local[0], Y: f.Local[1], Z: f.Local[2]})
	switch code {
	case schema.HostFaultIndex:
		// In the words of Go's panic, as the Go tier reports it.
		return fmt.Errorf("%s: index out of range [%s]%s", at, indexText(f.Index), objectText(k, f.Object, mem))
	case schema.HostFaultDivZero:
		return fmt.Errorf("%s: integer division by zero", at)
	case schema.HostFaultNegativeShift:
		// The words of Go's run-time panic, as the Go tier reports it.
		return fmt.Errorf("%s: negative shift amount", at)
	case schema.HostFaultBarrier:
		return fmt.Errorf("%s: a barrier or wave verb in control flow the block's work-items do not agree on", at)
	case schema.HostStopped:
		return fmt.Errorf("the host entry returned %d (stopped) with its launch's stop word clear", code)
	}
	return fmt.Errorf("the host entry returned %d, no code of schema/host.go", code)
}

// indexText spells an index as the kernel computed it: an int32 index
// below zero reads as its two's-complement bits, so both are given.
func indexText(i uint32) string {
	if int32(i) < 0 {
		return fmt.Sprintf("%d (%d as int32)", i, int32(i))
	}
	return fmt.Sprint(i)
}

// objectText names what HostFault.Object indexes: a buffer parameter of
// k with its length in elements, or a shared or private array.
func objectText(k *schema.Kernel, o uint32, mem [][]byte) string {
	if o == ^uint32(0) {
		return " of a shared or private array"
	}
	j := 0 // the buffer's place among the buffers bound
	for i, p := range k.Params {
		if p.Kind != schema.ParamBuffer {
			continue
		}
		if uint32(i) == o && j < len(mem) && p.Size > 0 {
			return fmt.Sprintf(" with length %d, buffer %s", len(mem[j])/p.Size, p.Name)
		}
		j++
	}
	return fmt.Sprintf(" of parameter %d, which is no buffer of the kernel", o)
}
