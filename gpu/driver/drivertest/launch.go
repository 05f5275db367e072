package drivertest

// This file holds the cases of launching, batching and buffer traffic.

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// testLaunch records more launches than the uniform ring holds between
// submits into a poisoned output; the last one's k is the one seen.
func testLaunch(t *testing.T, c Config) {
	d := c.open(t)
	p, q := c.setup(t, d)
	const n = 1000
	in := make([]uint32, n)
	for i := range in {
		in[i] = rand.Uint32()
	}
	poison := make([]uint32, n)
	for i := range poison {
		poison[i] = 0xDEADBEEF
	}
	bufs := make([]driver.Buffer, 3)
	for i := range bufs {
		bufs[i] = mustBuffer(t, d, 4*n)
		defer bufs[i].Release()
	}
	if err := bufs[0].Write(0, u32Bytes(poison)); err != nil {
		t.Fatal(err)
	}
	if err := bufs[1].Write(0, u32Bytes(in)); err != nil {
		t.Fatal(err)
	}
	const launches = 1500
	var k uint32
	for i := range launches {
		k = uint32(i) * 7919
		if err := q.Launch(bg, p, xpu.Dim3{X: (n + 63) / 64, Y: 1, Z: 1}, bufs, uniforms(k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := readU32(t, bufs[0])
	for i := range got {
		if got[i] != in[i]+k {
			t.Fatalf("out[%d] = %#x, want %#x", i, got[i], in[i]+k)
		}
	}
}

// testRing runs many launches before a sync (more than one uniform ring
// holds before a submit, on a driver with one), each with its own
// scalar, on dependent data.
func testRing(t *testing.T, c Config) {
	d := c.open(t)
	p, q := c.setup(t, d)
	const n = 100
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	in := make([]uint32, n)
	for i := range in {
		in[i] = r.Uint32()
	}
	a, b, unused := mustBuffer(t, d, 4*n), mustBuffer(t, d, 4*n), mustBuffer(t, d, 4)
	if err := a.Write(0, u32Bytes(in)); err != nil {
		t.Fatal(err)
	}
	want := append([]uint32(nil), in...)
	launches := 1000
	if c.RingLaunches != nil {
		launches = c.RingLaunches(d)
	}
	for i := range launches {
		k := r.Uint32()
		src, dst := a, b
		if i%2 == 1 {
			src, dst = b, a
		}
		if err := q.Launch(bg, p, xpu.Dim3{X: 2, Y: 1, Z: 1}, []driver.Buffer{dst, src, unused}, uniforms(k)); err != nil {
			t.Fatal(err)
		}
		for j := range want {
			want[j] += k
		}
	}
	if err := q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	final := b
	if launches%2 == 0 {
		final = a
	}
	for i, v := range readU32(t, final) {
		if v != want[i] {
			t.Fatalf("after %d launches: [%d] = %#x, want %#x", launches, i, v, want[i])
		}
	}
}

// testReleaseRecorded releases buffers that recorded launches use before
// their pass is submitted (on a driver that defers): the launches still
// run, on live memory, and the driver's bindings go with the buffers.
func testReleaseRecorded(t *testing.T, c Config) {
	d := c.open(t)
	p, q := c.setup(t, d)
	out := mustBuffer(t, d, 4*64)
	defer out.Release()
	for round := range 3 {
		in, unused := mustBuffer(t, d, 4*64), mustBuffer(t, d, 4)
		if err := in.Write(0, u32Bytes(make([]uint32, 64))); err != nil {
			t.Fatal(err)
		}
		if err := q.Launch(bg, p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{out, in, unused}, uniforms(uint32(round+7))); err != nil {
			t.Fatal(err)
		}
		in.Release()
		unused.Release()
		if err := q.Flush(context.Background()); err != nil {
			t.Fatalf("round %d: flush after releasing recorded buffers: %v", round, err)
		}
	}
	if err := q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	for i, v := range readU32(t, out) {
		if v != 9 {
			t.Fatalf("[%d] = %d, want 9", i, v)
		}
	}
	if n := c.bindings(d); n != 0 {
		t.Errorf("%d bindings held after their buffers were released", n)
	}
}

// testWriteRead checks unaligned writes and reads at offsets: a write
// whose length is not a multiple of 4 writes its bytes and no others, or,
// on a driver with a write alignment, is refused unless it ends at the
// buffer's end; a read at an offset off the driver's read alignment is
// refused, or, on a driver without one, reads what is there.
func testWriteRead(t *testing.T, c Config) {
	d := c.open(t)
	b := mustBuffer(t, d, 10)
	defer b.Release()
	if err := b.Write(0, []byte{0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9}); err != nil {
		t.Fatalf("a write of the whole 10-byte buffer: %v", err)
	}
	err := b.Write(0, []byte{1, 2, 3, 4, 5, 6})
	switch {
	case c.WriteAlign > 1 && err == nil:
		t.Error("a write of 6 bytes that ends inside a word before the buffer's end succeeded")
	case c.WriteAlign <= 1 && err != nil:
		t.Errorf("a write of 6 bytes at 0: %v", err)
	}
	if c.WriteAlign > 1 {
		if err := b.Write(0, []byte{1, 2, 3, 4, 5, 6, 0xa6, 0xa7}); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]byte, 6)
	if err := b.Read(bg, 4, got[:4]); err != nil {
		t.Fatal(err)
	}
	if string(got[:4]) != "\x05\x06\xa6\xa7" {
		t.Errorf("read at 4: % x, want 05 06 a6 a7", got[:4])
	}
	err = b.Read(bg, 2, got)
	switch {
	case c.ReadAlign > 1 && err == nil:
		t.Error("a read at an unaligned offset succeeded")
	case c.ReadAlign <= 1 && err != nil:
		t.Errorf("a read at offset 2: %v", err)
	case c.ReadAlign <= 1 && string(got) != "\x03\x04\x05\x06\xa6\xa7":
		t.Errorf("read at 2: % x, want 03 04 05 06 a6 a7", got)
	}
	if _, err := d.NewBuffer(int(min(d.Info().Limits.MaxBufferBytes+4, 1<<53))); err == nil {
		t.Error("a buffer over the device's limit was allocated")
	}
	c.leftErrors(t, d)
}

// testRepeat records, in one pass, launches that repeat the last one's
// bind group, scalars or both, in every combination: a launch that
// repeats both shares the last one's binding; any other binds its own.
func testRepeat(t *testing.T, c Config) {
	d := c.open(t)
	p, q := c.setup(t, d)
	const n = 64
	in := make([]uint32, n)
	for i := range in {
		in[i] = rand.Uint32()
	}
	a, b, unused := mustBuffer(t, d, 4*n), mustBuffer(t, d, 4*n), mustBuffer(t, d, 4)
	defer a.Release()
	defer b.Release()
	defer unused.Release()
	if err := a.Write(0, u32Bytes(in)); err != nil {
		t.Fatal(err)
	}
	mem := map[driver.Buffer][]uint32{a: append([]uint32(nil), in...), b: make([]uint32, n)}
	for i, l := range []struct {
		dst, src driver.Buffer
		k        uint32
	}{
		{b, a, 5}, {b, a, 5}, {b, a, 9}, {a, b, 9}, {a, b, 9}, {b, a, 9}, {b, a, 5}, {a, b, 7}, {a, b, 5},
	} {
		if err := q.Launch(bg, p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{l.dst, l.src, unused}, uniforms(l.k)); err != nil {
			t.Fatalf("launch %d: %v", i, err)
		}
		for j := range n {
			mem[l.dst][j] = mem[l.src][j] + l.k
		}
	}
	if err := q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	for _, buf := range []driver.Buffer{a, b} {
		for j, v := range readU32(t, buf) {
			if v != mem[buf][j] {
				t.Fatalf("[%d] = %#x, want %#x", j, v, mem[buf][j])
			}
		}
	}
}
