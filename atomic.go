package xpu

import (
	"sync/atomic"
	"unsafe"
)

// Integer is the set of element types of integer atomics.
type Integer interface {
	~int32 | ~uint32
}

// Word is the set of 32-bit element types an atomic load or store moves.
type Word interface {
	~int32 | ~uint32 | ~float32
}

// The atomics take a pointer to a buffer or shared-array element (&buf[i])
// and return the element's old value. A buffer or shared array touched by
// an atomic is an atomic array on devices: every other access to it must
// also go through AtomicLoad and AtomicStore (the compiler lowers plain
// accesses to those, but a kernel that mixes them with atomics of other
// work-items has a data race, as in Go).

// word returns p as a *uint32, first telling the race check that an
// atomic touched it.
func word(p unsafe.Pointer) *uint32 {
	noteAtomic(p)
	return (*uint32)(p)
}

func update[T Integer](p *T, f func(T) T) T {
	u := word(unsafe.Pointer(p))
	for {
		old := atomic.LoadUint32(u)
		if atomic.CompareAndSwapUint32(u, old, uint32(f(T(old)))) {
			return T(old)
		}
	}
}

// AtomicAdd adds v to *p (wrapping) and returns the old value.
func AtomicAdd[T Integer](p *T, v T) T {
	return T(atomic.AddUint32(word(unsafe.Pointer(p)), uint32(v)) - uint32(v))
}

// AtomicSub subtracts v from *p (wrapping) and returns the old value.
func AtomicSub[T Integer](p *T, v T) T { return update(p, func(o T) T { return o - v }) }

// AtomicMin stores the smaller of *p and v in *p and returns the old value.
func AtomicMin[T Integer](p *T, v T) T { return update(p, func(o T) T { return min(o, v) }) }

// AtomicMax stores the larger of *p and v in *p and returns the old value.
func AtomicMax[T Integer](p *T, v T) T { return update(p, func(o T) T { return max(o, v) }) }

// AtomicAnd stores *p & v in *p and returns the old value.
func AtomicAnd[T Integer](p *T, v T) T { return update(p, func(o T) T { return o & v }) }

// AtomicOr stores *p | v in *p and returns the old value.
func AtomicOr[T Integer](p *T, v T) T { return update(p, func(o T) T { return o | v }) }

// AtomicXor stores *p ^ v in *p and returns the old value.
func AtomicXor[T Integer](p *T, v T) T { return update(p, func(o T) T { return o ^ v }) }

// AtomicExchange stores v in *p and returns the old value.
func AtomicExchange[T Integer](p *T, v T) T {
	return T(atomic.SwapUint32(word(unsafe.Pointer(p)), uint32(v)))
}

// AtomicCompareExchange stores new in *p if *p equals old, and returns the
// value *p held before: the exchange happened exactly when the result
// equals old.
func AtomicCompareExchange[T Integer](p *T, old, new T) T {
	u := word(unsafe.Pointer(p))
	for {
		cur := atomic.LoadUint32(u)
		if T(cur) != old {
			return T(cur)
		}
		if atomic.CompareAndSwapUint32(u, cur, uint32(new)) {
			return old
		}
	}
}

// AtomicAddFloat32 adds v to *p and returns the old value. Devices without
// a native float atomic run it as a compare-exchange loop on the bits.
func AtomicAddFloat32(p *float32, v float32) float32 {
	u := word(unsafe.Pointer(p))
	for {
		old := atomic.LoadUint32(u)
		f := Float32FromBits(old)
		if atomic.CompareAndSwapUint32(u, old, Float32Bits(f+v)) {
			return f
		}
	}
}

// AtomicLoad returns *p, read atomically.
func AtomicLoad[T Word](p *T) T {
	b := atomic.LoadUint32(word(unsafe.Pointer(p)))
	return *(*T)(unsafe.Pointer(&b))
}

// AtomicStore stores v in *p atomically.
func AtomicStore[T Word](p *T, v T) {
	atomic.StoreUint32(word(unsafe.Pointer(p)), *(*uint32)(unsafe.Pointer(&v)))
}
