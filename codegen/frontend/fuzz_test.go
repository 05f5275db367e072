package frontend

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCheck feeds Check every input that parses and type-checks; Check
// must never panic, whatever it refuses.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(saxpy))
	f.Add([]byte(features))
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("testdata/refuse/*.go")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	testImporter{}.Import(xpuPath) // load once, outside the timed inputs
	f.Fuzz(func(t *testing.T, src []byte) {
		fset, files, pkg, info, err := typeCheck("k.go", src)
		if err != nil {
			t.Skip()
		}
		m, err := Check(fset, files, pkg, info)
		if err == nil && m == nil {
			t.Fatal("Check returned neither a module nor an error")
		}
	})
}

// fuzzSeeds are small kernels, valid and invalid, that reach many paths.
var fuzzSeeds = []string{
	`package k

import "github.com/goxpu/xpu"

type P struct{ X, Y float32 }

type C struct {
	N  int
	On bool
}

func f(a [4]float32, p P) float32 { return a[1] + p.X }

//xpu:kernel block=8,8
//xpu:instance A C{N: 2, On: true}
//xpu:instance B C{N: -1}
//xpu:requires c.N > 0 && c.N<<2 < 100
func T(t xpu.Thread, c C, y []float32, q []P, n int32, q2 []int32) {
	var a [4]float32
	a = [4]float32{1, 2: 3}
	p := P{Y: 2}
	for i := range int32(c.N) {
		a[i&3] += float32(i)
	}
	for i := n; i > 0; i >>= 1 {
		if i == 3 { continue }
		if i == 5 { break }
	}
	switch x := uint32(n); x % 3 {
	case 0, 1:
		y[0] = f(a, p)
	default:
		q[1].X = xpu.Fma(1, 2, 3)
	}
	if c.On || y[0] > 0 && f(a, P{X: 1}) > 0 {
		y[1] = xpu.Float32FromBits(xpu.Float32Bits(y[1]) ^ 1)
	}
	x, z := -n, ^uint32(n)
	x, z = int32(z), uint32(x)
	y[2] = float32(x) / float32(z)
	_ = xpu.AtomicCompareExchange(&q2[0], 1, 2)
}
`,
	`package k

import "github.com/goxpu/xpu"

//xpu:kernel block=32 wave=32
func W(t xpu.Thread, h []uint32, f []float32, n uint32) {
	s := xpu.Shared[uint32](t, 32)
	s[t.LocalX()] = 0
	t.Barrier()
	xpu.AtomicAdd(&s[t.LocalX()%4], 1)
	xpu.AtomicAddFloat32(&f[0], 1.5)
	xpu.AtomicStore(&h[1], xpu.AtomicLoad(&h[2]))
	t.Barrier()
	if t.GroupX() < n {
		h[t.GlobalX()] = s[t.LocalX()] << (n & 31)
	}
	for {
		if n > 0 { return }
	}
}
`,
	`package k

import "github.com/goxpu/xpu"

type C struct{ N int }

const M = 3

//xpu:kernel block=4
//xpu:instance A C{N: M * 2}
//xpu:requires error(c.N) == nil || uint32(c.N) > 1 && c.N % 0 == 1 || 1i > 0
func Q(t xpu.Thread, c C) {}

//xpu:kernel block=4
//xpu:instance B C{N: M * 2}
//xpu:requires uint32(c.N) > 1 && c.N%5 == 1 || -c.N < 0
func E(t xpu.Thread, c C, y []float32) {
	y[0] = float32(xpu.Thread.GlobalX(t))
	var f func()
	_ = f
	y[1] = float32(c.N >> 70)
}

//xpu:kernel block=4
//xpu:requires M > 5
func R(t xpu.Thread) {}
`,
	`package k

import "github.com/goxpu/xpu"

type Idx uint32

type In struct{ A float32 }

type Out struct {
	In
	B float32
}

type P struct{ X, Y float32 }

type C struct{ N int }

func (p P) Sum() float32 { return p.X + p.Y }

func mk(c C, t xpu.Thread) P {
	t.Barrier()
	return P{X: float32(c.N)}
}

//xpu:kernel block=4
func Other(t xpu.Thread, y []float32) {}

//xpu:kernel block=4
//xpu:instance A C{N: 1}
func Odd(t xpu.Thread, c C, y []float32, o []Out, n Idx) {
	g := t.GlobalX
	_ = g
	var a, b [2][2]float32
	if a == b {
		y[0] = a[1][0]
	}
	var v, w = 1, 2
	_, _ = v, w
	z := y[0:2:3]
	_ = z
	for i := range Idx(3) {
		y[i] = float32(len(a)) + float32(len("abc"))
	}
	switch x := 3; x {
	case 1:
	}
	y[1] = o[0].A + o[0].In.A
	y[2] = xpu.Min(y[0], y[1]) + float32(xpu.Abs[int32](-3))
	p := mk(c, t)
	y[3] = p.Sum()
	Other(t, y)
	_ = t
	go func() {}()
	defer func() { recover() }()
	var s = "a" + "b"
	_ = s
	min := 3
	_ = min
	var q P = P{1, 2}
	q.X, q.Y = q.Y, q.X
	y[4] = q.X
	var arr [3]P
	arr[n].X += 1
	y[5] = arr[2].Y
}
`,
}
