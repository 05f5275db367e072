// Package xpu is the kernel language of xpu and its reference runner.
//
// A kernel is an ordinary Go function whose first parameter is a [Thread]
// and whose doc comment carries a //xpu:kernel directive:
//
//	// Saxpy computes y = a*x + y.
//	//
//	//xpu:kernel block=256
//	func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
//		if i := t.GlobalX(); i < n {
//			y[i] = a*x[i] + y[i]
//		}
//	}
//
// Slices are device buffers, scalars (int32, uint32, float32) are uniforms,
// Go arrays are private arrays, [Shared] requests workgroup memory, and a
// struct-typed parameter holds comptime constants of a template. The
// vocabulary of this package (thread queries, barriers, atomics, float32
// math) is all a kernel may call besides its own package's device
// functions.
//
// The same function, run by [Run] with its work-items taking turns (a
// loop per block until one waits, then a goroutine each), real barriers
// and real atomics, is the reference semantics that every backend
// is tested against. [Run] needs no generated code.
//
// This package knows no codegen and no runtime: it imports only the
// standard library.
package xpu

// Dim3 is a size or coordinate in up to three dimensions. A zero Y or Z in
// a size means 1.
type Dim3 struct{ X, Y, Z uint32 }

// Norm returns d with zero Y and Z replaced by 1.
func (d Dim3) Norm() Dim3 {
	if d.Y == 0 {
		d.Y = 1
	}
	if d.Z == 0 {
		d.Z = 1
	}
	return d
}

// Count returns the number of points in the size d (zero Y or Z count as 1).
func (d Dim3) Count() uint64 {
	n := d.Norm()
	return uint64(n.X) * uint64(n.Y) * uint64(n.Z)
}

// GroupsFor returns how many blocks of size block cover n work-items:
// the ceiling of n/block.
func GroupsFor(n, block uint32) uint32 {
	if block == 0 {
		return 0
	}
	return uint32((uint64(n) + uint64(block) - 1) / uint64(block))
}
