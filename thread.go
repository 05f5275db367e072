package xpu

import (
	"reflect"
	"runtime"
	"slices"
)

// Thread is a work-item's view of its launch: its coordinates, the sizes of
// the grid and the block, and the block-wide barrier. It is the first
// parameter of every kernel and may be passed on to device functions.
//
// Coordinates follow WebGPU: a launch is a grid of groups (blocks), each a
// box of work-items; Global = Group*Block + Local on each axis.
type Thread struct{ w *workItem }

// GlobalX returns the work-item's global coordinate on X.
func (t Thread) GlobalX() uint32 { return t.w.group.X*t.w.blk.l.size.X + t.w.local.X }

// GlobalY returns the work-item's global coordinate on Y.
func (t Thread) GlobalY() uint32 { return t.w.group.Y*t.w.blk.l.size.Y + t.w.local.Y }

// GlobalZ returns the work-item's global coordinate on Z.
func (t Thread) GlobalZ() uint32 { return t.w.group.Z*t.w.blk.l.size.Z + t.w.local.Z }

// LocalX returns the work-item's coordinate inside its block on X.
func (t Thread) LocalX() uint32 { return t.w.local.X }

// LocalY returns the work-item's coordinate inside its block on Y.
func (t Thread) LocalY() uint32 { return t.w.local.Y }

// LocalZ returns the work-item's coordinate inside its block on Z.
func (t Thread) LocalZ() uint32 { return t.w.local.Z }

// LocalIndex returns the work-item's linear index inside its block:
// LocalX + LocalY*BlockX + LocalZ*BlockX*BlockY.
func (t Thread) LocalIndex() uint32 {
	s := t.w.blk.l.size
	return t.w.local.X + t.w.local.Y*s.X + t.w.local.Z*s.X*s.Y
}

// GroupX returns the coordinate of the work-item's block on X.
func (t Thread) GroupX() uint32 { return t.w.group.X }

// GroupY returns the coordinate of the work-item's block on Y.
func (t Thread) GroupY() uint32 { return t.w.group.Y }

// GroupZ returns the coordinate of the work-item's block on Z.
func (t Thread) GroupZ() uint32 { return t.w.group.Z }

// NumGroupsX returns the number of blocks of the launch on X.
func (t Thread) NumGroupsX() uint32 { return t.w.blk.l.groups.X }

// NumGroupsY returns the number of blocks of the launch on Y.
func (t Thread) NumGroupsY() uint32 { return t.w.blk.l.groups.Y }

// NumGroupsZ returns the number of blocks of the launch on Z.
func (t Thread) NumGroupsZ() uint32 { return t.w.blk.l.groups.Z }

// BlockX returns the block size on X.
func (t Thread) BlockX() uint32 { return t.w.blk.l.size.X }

// BlockY returns the block size on Y.
func (t Thread) BlockY() uint32 { return t.w.blk.l.size.Y }

// BlockZ returns the block size on Z.
func (t Thread) BlockZ() uint32 { return t.w.blk.l.size.Z }

// WaveWidth returns the number of lanes in a wave on the device the kernel
// runs on. It is a query, never a constant: kernels must work at any width
// unless they declare one.
func (t Thread) WaveWidth() uint32 { return t.w.blk.l.wave }

// LaneIndex returns the work-item's lane inside its wave:
// LocalIndex() % WaveWidth().
func (t Thread) LaneIndex() uint32 { return t.LocalIndex() % t.w.blk.l.wave }

// Barrier waits until every work-item of the block has reached it, and
// makes the writes each made to shared arrays and buffers before it
// visible to all after it. It must be reached in workgroup-uniform control
// flow: by all work-items of a block or by none, at the same call. The
// reference runner fails the block ([ErrRun], rule xpu-barrier-nonuniform)
// when the work-items wait at different barriers or some return while
// others wait. It is not inlined, so that its call site names it.
//
//go:noinline
func (t Thread) Barrier() {
	var pc [1]uintptr
	runtime.Callers(2, pc[:])
	t.w.site, t.w.path = pc[0], t.w.blk.l.callPath(2)
	t.w.state = itemBarrier
	t.w.yield()
}

// Shared returns the block's shared (workgroup) array of n elements of T.
// Every work-item of a block gets the same array; n must be a constant
// expression (constants and comptime fields), and the call must sit at the
// top level of the kernel body, in the kernel function itself (a device
// function takes the array as a parameter; for the reference runner the
// kernel is the function given to Run, so pass a template's comptime
// value to Run rather than wrapping the template in a closure). Shared arrays start with
// unspecified contents on devices (zeros in the reference runner): write
// before you read. The reference runner fails the work-item ([ErrRun],
// rule xpu-shared-placement) on a call in another function than the
// kernel, a second call at one place, or calls that differ between the
// work-items of a block.
func Shared[T any](t Thread, n int) []T {
	w, b := t.w, t.w.blk
	var pc [1]uintptr
	runtime.Callers(2, pc[:])
	site := pc[0]
	if f := b.l.funcAt(site); f != b.l.name {
		panic(ruleErr(ruleShared, "xpu.Shared at %s is called in %s, not in the kernel %s: request shared arrays at the top level of the kernel body and pass them to device functions",
			siteOf(site), f, b.l.name))
	}
	if slices.Contains(w.sharedSites, site) {
		panic(ruleErr(ruleShared, "xpu.Shared at %s is called again by one work-item (in a loop?): call it once, at the top level of the kernel body", siteOf(site)))
	}
	w.sharedSites = append(w.sharedSites, site)
	k := w.sharedNext
	w.sharedNext++
	if k == len(b.shared) {
		b.shared = append(b.shared, newSharedArray[T](b, k, n, site))
	}
	a := b.shared[k]
	s, ok := a.slice.([]T)
	if !ok || len(s) != n || a.site != site {
		panic(ruleErr(ruleShared, "the work-items of one block request different shared arrays as their shared array #%d (%s at %s, and %s[%d] at %s): keep xpu.Shared calls at the top level of the kernel body",
			k, a.desc, siteOf(a.site), reflect.TypeFor[T](), n, siteOf(site)))
	}
	return s
}
