package drivertest

// This file holds the case of launches that bind buffer views.

import (
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// testViews binds *driver.View windows of larger buffers at the device's
// storage offset alignment: the kernel sees only the windows (it bounds
// itself by the window's length), the bytes around them keep their
// poison, and a driver that holds bindings keys each by (buffer, offset,
// size) and drops a view's when the view is released.
func testViews(t *testing.T, c Config) {
	d := c.open(t)
	p, q := c.setup(t, d)
	align := max(4, int(d.Info().Limits.StorageOffsetAlignment))
	const n = 300
	size := 4*n + 3*align
	out, in, unused := mustBuffer(t, d, size), mustBuffer(t, d, size), mustBuffer(t, d, 4)
	defer out.Release()
	defer in.Release()
	defer unused.Release()
	poison := make([]uint32, size/4)
	for i := range poison {
		poison[i] = 0xDEADBEEF
	}
	src := make([]uint32, size/4)
	for i := range src {
		src[i] = rand.Uint32()
	}
	if err := out.Write(0, u32Bytes(poison)); err != nil {
		t.Fatal(err)
	}
	if err := in.Write(0, u32Bytes(src)); err != nil {
		t.Fatal(err)
	}
	groups := xpu.Dim3{X: (n + 63) / 64, Y: 1, Z: 1}
	before := c.bindings(d)
	// Two launches over two input windows into one output window, then
	// the first again: three launches, two bind groups.
	outView := &driver.View{Buffer: out, Offset: 2 * align, Bytes: 4 * n}
	for _, inOff := range []int{align, 0, align} {
		bufs := []driver.Buffer{outView, &driver.View{Buffer: in, Offset: inOff, Bytes: 4 * n}, unused}
		if err := q.Launch(bg, p, groups, bufs, uniforms(7)); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.bindings(d) - before; c.Bindings != nil && n != 2 {
		t.Errorf("%d bindings for two distinct views, want 2", n)
	}
	if err := q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	got := readU32(t, out)
	lo := 2 * align / 4
	for i, g := range got {
		want := poison[i]
		if i >= lo && i < lo+n {
			want = src[align/4+i-lo] + 7
		}
		if g != want {
			t.Fatalf("out[%d] = %#x, want %#x (the window is [%d, %d))", i, g, want, lo, lo+n)
		}
	}
	// A window past the buffer's end is refused, not bound.
	bad := []driver.Buffer{outView, &driver.View{Buffer: in, Offset: size - 4*n + 4, Bytes: 4 * n}, unused}
	if err := q.Launch(bg, p, groups, bad, uniforms(7)); err == nil {
		t.Fatal("a view past its buffer's end was launched")
	}
	// Releasing a view drops the groups that bind its range: both.
	outView.Release()
	if n := c.bindings(d) - before; n != 0 {
		t.Errorf("%d bindings left after the view they bind was released, want 0", n)
	}
}
