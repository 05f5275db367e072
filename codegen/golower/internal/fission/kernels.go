package fission

import "github.com/goxpu/xpu"

// block is the block size of the one-dimensional kernels.
const block = 64

// Pair is a struct local.
type Pair struct{ X, Y uint32 }

// StructCopiedInLoop declares a struct before a loop with barriers and
// copies it whole inside: q := b.
//
//xpu:kernel block=64
func StructCopiedInLoop(t xpu.Thread, out, in []uint32, n uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	b := Pair{X: in[t.GlobalX()], Y: n}
	acc := uint32(0)
	for m := uint32(0); m < 3; m++ {
		q := b
		s[l] = q.X + m
		t.Barrier()
		acc += s[(l+m+1)%block] ^ q.Y
		t.Barrier()
	}
	out[t.GlobalX()] = acc
}

// StructFieldsInLoop reads and assigns the fields of a struct declared
// before the loop, on both sides of its barriers, and assigns it whole.
//
//xpu:kernel block=64
func StructFieldsInLoop(t xpu.Thread, out, in []uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	var b Pair
	b.X = in[t.GlobalX()]
	for m := uint32(0); m < 4; m++ {
		s[l] = b.X
		t.Barrier()
		b.Y += s[(l+1)%block]
		t.Barrier()
		if b.Y%3 == 0 {
			b = Pair{X: b.Y, Y: b.X}
		} else {
			b.X = b.X*5 + m
		}
	}
	out[2*t.GlobalX()] = b.X
	out[2*t.GlobalX()+1] = b.Y
}

// mix is a device function that takes a struct and an array whole.
func mix(p Pair, a [4]uint32) uint32 { return p.X*3 + p.Y + a[0] + a[3]*7 }

// ArrayInLoop keeps a private array declared before the loop: copied
// whole, indexed by a variable, assigned element by element and whole,
// and passed to a device function.
//
//xpu:kernel block=64
func ArrayInLoop(t xpu.Thread, out, in []uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	var a [4]uint32
	for i := uint32(0); i < 4; i++ {
		a[i] = in[4*t.GlobalX()+i]
	}
	p := Pair{X: l, Y: 1}
	for m := uint32(0); m < 3; m++ {
		c := a
		s[l] = c[m] + mix(p, a)
		t.Barrier()
		a[(l+m)%4] += s[(l+1)%block]
		t.Barrier()
		if a[0] > a[1] {
			a = c
		}
		p.Y = a[m%4]
	}
	for i := uint32(0); i < 4; i++ {
		out[4*t.GlobalX()+i] = a[i] + p.Y
	}
}

// StructArrayInLoop keeps a private array of structs declared before the
// loop, read and written by field inside.
//
//xpu:kernel block=64
func StructArrayInLoop(t xpu.Thread, out, in []uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	var ps [3]Pair
	for i := uint32(0); i < 3; i++ {
		ps[i] = Pair{X: in[t.GlobalX()] + i, Y: i}
	}
	for m := uint32(0); m < 3; m++ {
		s[l] = ps[m].X
		t.Barrier()
		ps[(m+1)%3].Y += s[(l+3)%block]
		w := ps
		t.Barrier()
		ps[m].X = w[(m+2)%3].Y
	}
	out[t.GlobalX()] = ps[0].X + ps[1].Y*3 + ps[2].X*5
}

// ScalarCopiedInLoop declares a scalar that is not uniform before the loop
// and uses it in declarations inside (x := v), in the loop's own
// statements and in its post statement.
//
//xpu:kernel block=64
func ScalarCopiedInLoop(t xpu.Thread, out, in []uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	v := in[t.GlobalX()]
	w := v * 3
	for m := uint32(0); m < 3; m++ {
		x := v
		s[l] = x + w
		t.Barrier()
		y := s[(l+5)%block]
		t.Barrier()
		w = y ^ x
	}
	out[t.GlobalX()] = w + v
}

// NestedLoops declares locals before an outer loop whose inner loop holds
// the barriers, and in the outer loop's body before the inner loop.
//
//xpu:kernel block=64
func NestedLoops(t xpu.Thread, out, in []uint32, n uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	b := Pair{X: in[t.GlobalX()], Y: l}
	var a [2]uint32
	a[1] = b.X
	for i := uint32(0); i < n; i++ {
		c := b
		d := a
		for j := uint32(0); j < 2; j++ {
			s[l] = c.X + d[j]
			t.Barrier()
			c.Y += s[(l+j+1)%block]
			t.Barrier()
		}
		b.X = c.Y
		a[i%2] = c.X + d[0]
	}
	out[t.GlobalX()] = b.X + b.Y + a[0] + a[1]
}

// DeclaredInIf declares locals in a uniform if's init statement and in
// its branch before a loop with barriers inside the branch, and a local
// before the if that the else branch, with a barrier, assigns.
//
//xpu:kernel block=64
func DeclaredInIf(t xpu.Thread, out, in []uint32, n uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	r := Pair{X: in[t.GlobalX()], Y: 7}
	if h := n / 2; h > 0 {
		b := Pair{X: r.X, Y: h}
		var a [2]uint32
		a[0] = in[t.GlobalX()] + 1
		for m := uint32(0); m < h; m++ {
			q := b
			s[l] = q.X + a[m%2]
			t.Barrier()
			a[(m+1)%2] = s[(l+1)%block] + q.Y
			t.Barrier()
			b.X = a[0] ^ a[1]
		}
		r = b
	} else {
		s[l] = r.X
		t.Barrier()
		r.Y = s[(l+2)%block]
	}
	out[t.GlobalX()] = r.X + r.Y
}

// WaveInLoop reads a struct and a private array declared before a loop in
// the operands of a wave verb inside it, and assigns the verb's result to
// a field.
//
//xpu:kernel block=64
func WaveInLoop(t xpu.Thread, out, in []uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	b := Pair{X: in[t.GlobalX()] % 1024, Y: 0}
	var a [2]uint32
	a[1] = l
	for m := uint32(0); m < 2; m++ {
		s[l] = b.X + a[m]
		t.Barrier()
		w := xpu.WaveSum(t, s[(l+1)%block]+a[1])
		b.Y += w
		a[0] = b.Y ^ m
		t.Barrier()
	}
	out[t.GlobalX()] = b.X + b.Y + a[0]
}

// NestedArrayInLoop keeps an array of arrays and a struct loaded from a
// buffer, both declared before the loop: rows copied whole, elements
// assigned, the struct replaced from the buffer inside.
//
//xpu:kernel block=64
func NestedArrayInLoop(t xpu.Thread, out []uint32, ps []Pair) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	p := ps[t.GlobalX()]
	var m [2][2]uint32
	m[0][1] = p.X
	m[1][0] = p.Y
	for k := uint32(0); k < 3; k++ {
		r := m[k%2]
		s[l] = r[0] + r[1]*3
		t.Barrier()
		m[(k+1)%2][k%2] += s[(l+7)%block]
		if m[0][0] > m[1][1] {
			m[1] = r
			p = ps[(t.GlobalX()+k)%uint32(len(ps))]
		}
		t.Barrier()
	}
	out[t.GlobalX()] = m[0][0] ^ m[0][1] ^ m[1][0]*5 ^ m[1][1]*7 ^ p.X
}
