package fission

import "github.com/goxpu/xpu"

// ConstantIndexOutOfRange indexes, inside an if that runs only when bad
// is nonzero, a shared array, a private array of arrays, both buffers and
// an atomic shared array with indexes that are constants, or fold to
// constants, outside them (the Go lowering spells BlockX as a constant):
// legal Go, which panics only if the access runs. The first one panics.
//
//xpu:kernel block=64
func ConstantIndexOutOfRange(t xpu.Thread, out, in []uint32, bad uint32) {
	l, i := t.LocalX(), t.GlobalX()
	s := xpu.Shared[uint32](t, block)
	h := xpu.Shared[uint32](t, block)
	a := [4][2]uint32{{in[i], 1}, {2, 3}}
	s[l] = in[i]
	h[l] = 0
	t.Barrier()
	if bad != 0 {
		s[64] = s[4294967295] + s[int32(t.BlockX())-65] + s[t.BlockX()]
		a[t.BlockX()-60][1] = a[1][int32(t.BlockX())-65] + a[t.BlockX()-65][0]
		out[int32(t.BlockX())-65] = in[4294967295] + in[int32(t.BlockX())-65]
		xpu.AtomicAdd(&h[64], 1)
		xpu.AtomicStore(&h[t.BlockX()], a[0][1])
		out[i] = xpu.AtomicLoad(&h[int32(t.BlockX())-65])
	}
	xpu.AtomicAdd(&h[(l+1)%block], s[(l+3)%block])
	t.Barrier()
	out[i] = xpu.AtomicLoad(&h[l]) ^ a[0][0] ^ a[1][1]
}

// ConstantFaults divides, takes a remainder and shifts, inside an if that
// runs only when bad is nonzero, by operands that fold to zero or to a
// negative count (the Go lowering spells BlockX as a constant): legal Go,
// which panics only if the operation runs, as every backend must fault
// then.
//
//xpu:kernel block=64
func ConstantFaults(t xpu.Thread, out, in []uint32, bad uint32) {
	i := t.GlobalX()
	v := in[i]
	if bad != 0 {
		v = v/(t.BlockX()-64) + v%(t.BlockX()-64)
		v += uint32(int32(v) << (int32(t.BlockX()) - 65))
		v += uint32(int32(v) / (int32(t.BlockX()) - 64))
	}
	out[i] = v ^ v>>3
}
