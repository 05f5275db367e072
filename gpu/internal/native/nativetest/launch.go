package nativetest

// This file runs kernels of the suite's: the faulting division, and the
// Add kernel from many goroutines at once.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// FaultWord runs the faulting division of arts (its entry "divide" of
// the driver's test module, out[i] = in[i] / d), under kernel name: with
// a divisor, the quotients on fresh inputs and a clear word; with zero,
// the word's FaultDivZero bit, through the argument after the uniform
// block.
func FaultWord(t *testing.T, d driver.Device, name string, arts []schema.Artifact) {
	k := &driver.Kernel{
		Name:  name,
		Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
		Params: []schema.Param{
			{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite},
			{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
			{Name: "d", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4},
		},
		UniformSize: 16,
		Artifacts:   arts,
	}
	k.Artifacts[0].Fault = true
	p, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	const n = 200
	out, in, word := Buffer(t, d, 4*n), Buffer(t, d, 4*n), Buffer(t, d, 4)
	src := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(src[4*i:], rand.Uint32())
	}
	for _, div := range []uint32{1 + rand.Uint32N(1000), 0} {
		if err := out.Write(0, Words(0xDEADBEEF, n)); err != nil {
			t.Fatal(err)
		}
		if err := in.Write(0, src); err != nil {
			t.Fatal(err)
		}
		u := make([]byte, 16)
		binary.LittleEndian.PutUint32(u, div)
		if err := q.Launch(context.Background(), p, xpu.Dim3{X: (n + 63) / 64, Y: 1, Z: 1}, []driver.Buffer{out, in, word}, u); err != nil {
			t.Fatal(err)
		}
		if err := q.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, w := make([]byte, 4*n), make([]byte, 4)
		if err := out.Read(context.Background(), 0, got); err != nil {
			t.Fatal(err)
		}
		if err := word.Read(context.Background(), 0, w); err != nil {
			t.Fatal(err)
		}
		wantWord := uint32(0)
		if div == 0 {
			wantWord = schema.FaultDivZero
		}
		if bits := binary.LittleEndian.Uint32(w); bits != wantWord {
			t.Fatalf("divisor %d: fault word %#x, want %#x", div, bits, wantWord)
		}
		for i := range n {
			want := uint32(0)
			if div != 0 {
				want = binary.LittleEndian.Uint32(src[4*i:]) / div
			}
			if g := binary.LittleEndian.Uint32(got[4*i:]); g != want {
				t.Fatalf("divisor %d: out[%d] = %d, want %d", div, i, g, want)
			}
		}
	}
}

// Threads launches add, the suite's Add kernel with the driver's code
// (drivertest.AddKernel), from many goroutines at once, each on its own
// queue: a fake library refuses every call on a thread whose current
// context or device is not set, as the libraries do, so each call must
// set it on the thread it runs on.
func Threads(t *testing.T, d driver.Device, add *driver.Kernel) {
	p, err := d.Compile(add)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- addOnce(d, p, uint32(g))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// addOnce runs the Add kernel on a queue of its own over fresh inputs and
// checks the sums.
func addOnce(d driver.Device, p driver.Program, k uint32) error {
	q, err := d.NewQueue()
	if err != nil {
		return err
	}
	defer q.Release()
	const n = 640
	bufs := make([]driver.Buffer, 3)
	for i := range bufs {
		if bufs[i], err = d.NewBuffer(4 * n); err != nil {
			return err
		}
		defer bufs[i].Release()
	}
	src := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(src[4*i:], rand.Uint32())
	}
	if err := bufs[1].Write(0, src); err != nil {
		return err
	}
	if err := bufs[0].Write(0, Words(0xDEADBEEF, n)); err != nil {
		return err
	}
	for range 20 {
		if err := q.Launch(context.Background(), p, xpu.Dim3{X: n / 64, Y: 1, Z: 1}, bufs, Words(k, 4)); err != nil {
			return err
		}
	}
	if err := q.Sync(context.Background()); err != nil {
		return err
	}
	got := make([]byte, 4*n)
	if err := bufs[0].Read(context.Background(), 0, got); err != nil {
		return err
	}
	for i := range n {
		if g, w := binary.LittleEndian.Uint32(got[4*i:]), binary.LittleEndian.Uint32(src[4*i:])+k; g != w {
			return fmt.Errorf("k=%d: out[%d] = %#x, want %#x", k, i, g, w)
		}
	}
	return nil
}

// Words is n copies of v, little-endian.
func Words(v uint32, n int) []byte {
	b := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}
