package xpu

// Thread is a work-item's view of its launch: its coordinates, the sizes of
// the grid and the block, and the block-wide barrier. It is the first
// parameter of every kernel and may be passed on to device functions.
//
// Coordinates follow WebGPU: a launch is a grid of groups (blocks), each a
// box of work-items; Global = Group*Block + Local on each axis.
type Thread struct{ w *workItem }

// GlobalX returns the work-item's global coordinate on X.
func (t Thread) GlobalX() uint32 { return t.w.group.X*t.w.blk.size.X + t.w.local.X }

// GlobalY returns the work-item's global coordinate on Y.
func (t Thread) GlobalY() uint32 { return t.w.group.Y*t.w.blk.size.Y + t.w.local.Y }

// GlobalZ returns the work-item's global coordinate on Z.
func (t Thread) GlobalZ() uint32 { return t.w.group.Z*t.w.blk.size.Z + t.w.local.Z }

// LocalX returns the work-item's coordinate inside its block on X.
func (t Thread) LocalX() uint32 { return t.w.local.X }

// LocalY returns the work-item's coordinate inside its block on Y.
func (t Thread) LocalY() uint32 { return t.w.local.Y }

// LocalZ returns the work-item's coordinate inside its block on Z.
func (t Thread) LocalZ() uint32 { return t.w.local.Z }

// LocalIndex returns the work-item's linear index inside its block:
// LocalX + LocalY*BlockX + LocalZ*BlockX*BlockY.
func (t Thread) LocalIndex() uint32 {
	s := t.w.blk.size
	return t.w.local.X + t.w.local.Y*s.X + t.w.local.Z*s.X*s.Y
}

// GroupX returns the coordinate of the work-item's block on X.
func (t Thread) GroupX() uint32 { return t.w.group.X }

// GroupY returns the coordinate of the work-item's block on Y.
func (t Thread) GroupY() uint32 { return t.w.group.Y }

// GroupZ returns the coordinate of the work-item's block on Z.
func (t Thread) GroupZ() uint32 { return t.w.group.Z }

// NumGroupsX returns the number of blocks of the launch on X.
func (t Thread) NumGroupsX() uint32 { return t.w.blk.groups.X }

// NumGroupsY returns the number of blocks of the launch on Y.
func (t Thread) NumGroupsY() uint32 { return t.w.blk.groups.Y }

// NumGroupsZ returns the number of blocks of the launch on Z.
func (t Thread) NumGroupsZ() uint32 { return t.w.blk.groups.Z }

// BlockX returns the block size on X.
func (t Thread) BlockX() uint32 { return t.w.blk.size.X }

// BlockY returns the block size on Y.
func (t Thread) BlockY() uint32 { return t.w.blk.size.Y }

// BlockZ returns the block size on Z.
func (t Thread) BlockZ() uint32 { return t.w.blk.size.Z }

// WaveWidth returns the number of lanes in a wave on the device the kernel
// runs on. It is a query, never a constant: kernels must work at any width
// unless they declare one.
func (t Thread) WaveWidth() uint32 { return t.w.blk.wave }

// LaneIndex returns the work-item's lane inside its wave:
// LocalIndex() % WaveWidth().
func (t Thread) LaneIndex() uint32 { return t.LocalIndex() % t.w.blk.wave }

// Barrier waits until every work-item of the block has reached it, and
// makes the writes each made to shared arrays and buffers before it
// visible to all after it. It must be reached in workgroup-uniform control
// flow: by all work-items of a block or by none.
func (t Thread) Barrier() { t.w.blk.bar.wait() }

// Shared returns the block's shared (workgroup) array of n elements of T.
// Every work-item of a block gets the same array; n must be a constant
// expression (constants and comptime fields), and the call must sit at the
// top level of the kernel body. Shared arrays start with unspecified
// contents on devices: write before you read.
func Shared[T any](t Thread, n int) []T {
	k := t.w.sharedNext
	t.w.sharedNext++
	b := t.w.blk
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.shared) <= k {
		b.shared = append(b.shared, nil)
	}
	if b.shared[k] == nil {
		b.shared[k] = make([]T, n)
	}
	s, ok := b.shared[k].([]T)
	if !ok || len(s) != n {
		panic("xpu: work-items of one block requested different shared arrays; keep xpu.Shared calls at the top level of the kernel")
	}
	return s
}
