package native

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
)

// buf is a driver's own buffer for the tests: an address and a size.
type buf struct {
	driver.Buffer
	ptr  uint64
	size int
}

func base(b driver.Buffer) (uint64, int, error) {
	if x, ok := b.(*buf); ok {
		return x.ptr, x.size, nil
	}
	return 0, 0, errors.New("not a test buffer")
}

// TestArgs checks a launch's arguments on random buffers and views
// against the contract's order, computed independently here: per buffer
// its address and length, the uniforms, the fault word.
func TestArgs(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 5))
	for range 200 {
		nbuf := r.IntN(5)
		fault, uni := r.IntN(2) == 0, uint64(0)
		if r.IntN(2) == 0 {
			uni = r.Uint64() | 1
		}
		var bufs []driver.Buffer
		var want []uint64
		for i := range nbuf + btoi(fault) {
			b := &buf{ptr: r.Uint64N(1 << 40), size: 4 * (1 + r.IntN(100))}
			ptr, n := b.ptr, uint64(b.size)
			var bb driver.Buffer = b
			if r.IntN(2) == 0 {
				off := 4 * r.IntN(b.size/4)
				v := &driver.View{Buffer: b, Offset: off, Bytes: 4 * r.IntN((b.size-off)/4+1)}
				bb, ptr, n = v, b.ptr+uint64(off), uint64(v.Bytes)
			}
			bufs = append(bufs, bb)
			if i < nbuf {
				want = append(want, ptr, n)
			}
		}
		if uni != 0 {
			want = append(want, uni)
		}
		if fault {
			p, _, _ := Bound(bufs[nbuf], base)
			want = append(want, p)
		}
		got, err := Args(make([]uint64, 3), Launch{Buffers: nbuf, Fault: fault, Uniforms: uni}, bufs, base)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("args %v, want %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("args %v, want %v", got, want)
			}
		}
	}
	b := &buf{ptr: 64, size: 16}
	for _, bad := range []driver.Buffer{&driver.View{Buffer: b, Offset: 8, Bytes: 12}, &driver.View{Buffer: b, Offset: -4, Bytes: 4}, nil} {
		if _, err := Args(nil, Launch{Buffers: 2}, []driver.Buffer{b, bad}, base); err == nil || !strings.Contains(err.Error(), "buffer 1") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCall checks that the launch sees a pointer to each value, in order.
func TestCall(t *testing.T) {
	vals := []uint64{rand.Uint64(), rand.Uint64(), rand.Uint64()}
	want := append([]uint64(nil), vals...)
	_, rc := Call(vals, func(params unsafe.Pointer) uint32 {
		// The values lie before the pointers, in one allocation.
		n := len(want)
		ptrs := unsafe.Slice((*uint64)(params), n)
		values := unsafe.Slice((*uint64)(unsafe.Add(params, -8*n)), n)
		for i := range n {
			if values[i] != want[i] || ptrs[i] != uint64(uintptr(unsafe.Pointer(&values[i]))) {
				return 1
			}
		}
		return 0
	})
	if rc != 0 {
		t.Fatal("the launch saw other values")
	}
}

// TestModules checks the references: one load per key, the handle given
// back after the last reference.
func TestModules(t *testing.T) {
	var ms Modules
	loads := 0
	load := func() (uintptr, error) { loads++; return uintptr(100 + loads), nil }
	a, b := [32]byte{1}, [32]byte{2}
	ha, _ := ms.Ref(a, load)
	ha2, _ := ms.Ref(a, load)
	hb, _ := ms.Ref(b, load)
	if loads != 2 || ha != ha2 || ha == hb {
		t.Fatalf("loads %d, handles %d %d %d", loads, ha, ha2, hb)
	}
	if _, last := ms.Unref(a); last {
		t.Fatal("unloaded with a reference left")
	}
	if h, last := ms.Unref(a); !last || h != ha {
		t.Fatalf("last unref: %d %v", h, last)
	}
	if _, err := ms.Ref(a, func() (uintptr, error) { return 0, errors.New("no") }); err == nil {
		t.Fatal("a failed load gave a module")
	}
	if hs := ms.Drain(); len(hs) != 1 || hs[0] != hb {
		t.Fatalf("drain %v", hs)
	}
}

// TestPoll checks that a poll ends when its work does, fails with its
// query, and ends with its context.
func TestPoll(t *testing.T) {
	n := 0
	if err := poll(context.Background(), func() (bool, error) { n++; return n == 5, nil }); err != nil || n != 5 {
		t.Fatal(err, n)
	}
	bad := errors.New("bad")
	if err := poll(context.Background(), func() (bool, error) { return false, bad }); err != bad {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := poll(ctx, func() (bool, error) { return false, nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal(err)
	}
}

// TestHealth checks that the first lost error stays and later calls say
// it.
func TestHealth(t *testing.T) {
	h := Health{Prefix: "x"}
	if h.Usable("a") != nil || h.Lost() {
		t.Fatal("a new device is lost")
	}
	first := errors.Join(errors.New("first"), driver.ErrLost)
	h.Failed(errors.New("not lost"))
	if h.Lost() {
		t.Fatal("lost by an error that does not say so")
	}
	h.Failed(first)
	h.Lose(errors.Join(errors.New("second"), driver.ErrLost))
	err := h.Usable("Sync")
	if !errors.Is(err, driver.ErrLost) || !strings.Contains(err.Error(), "x: Sync: first") {
		t.Fatal(err)
	}
}
