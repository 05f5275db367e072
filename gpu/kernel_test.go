package gpu_test

import (
	"math"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// Each test runs a kernel on every device and through the reference runner
// on the same fresh random inputs, with outputs poisoned first.

func TestSaxpy(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, guard = 1000, 37 // the buffers run past n: a guard band
		x, y := randF32s(r, n+guard), randF32s(r, n+guard)
		for i := n; i < n+guard; i++ {
			y[i] = poisonF32
		}
		a := r.Float32()*4 - 2
		groups := xpu.Dim3{X: xpu.GroupsFor(n, saxpyKernel.Block().X)}

		want := append([]float32(nil), y...)
		if err := xpu.Run(xpu.Config{Groups: groups, Block: saxpyKernel.Block()}, saxpy, want, x, a, uint32(n)); err != nil {
			t.Fatal(err)
		}
		yb := upload(t, d, y)
		xb := upload(t, d, x)
		if err := d.Stream().Launch(saxpyKernel, groups, yb, xb, a, uint32(n)); err != nil {
			t.Fatal(err)
		}
		got := download(t, yb)
		for i := range got {
			if i >= n {
				if !math.IsNaN(float64(got[i])) {
					t.Fatalf("guard y[%d] = %v: written past n", i, got[i])
				}
				continue
			}
			if !closeF32(got[i], want[i], abs(a*x[i])+abs(y[i])) {
				t.Fatalf("y[%d] = %v, reference %v (within 2 ulp)", i, got[i], want[i])
			}
		}
	})
}

func TestReadOnlyAndWriteBuffers(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 8 * 4 * 6 * 5 // a 6x5 grid of 8x4 blocks, exactly
		in := make([]int32, n)
		for i := range in {
			in[i] = r.Int32() - r.Int32()
		}
		groups := xpu.Dim3{X: 6, Y: 5}
		want := fill(n, poisonI32)
		if err := xpu.Run(xpu.Config{Groups: groups, Block: scrambleKernel.Block()}, scramble, want, in); err != nil {
			t.Fatal(err)
		}
		inb := upload(t, d, in)
		outb := upload(t, d, fill(n, poisonI32))
		if err := d.Stream().Launch(scrambleKernel, groups, outb, inb); err != nil {
			t.Fatal(err)
		}
		got := download(t, outb)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("out[%d] = %#x, reference %#x", i, got[i], want[i])
			}
		}
		// The read-only input is unchanged.
		for i, v := range download(t, inb) {
			if v != in[i] {
				t.Fatalf("in[%d] changed: %d, was %d", i, v, in[i])
			}
		}
	})
}

func TestStructBuffer(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, guard = 333, 5
		ps := make([]Particle, n+guard)
		for i := range ps {
			ps[i] = Particle{X: r.Float32() * 2, Y: r.Float32(), VX: r.Float32() - 0.5, VY: r.Float32() - 0.5, Hits: r.Uint32N(100)}
		}
		poison := Particle{poisonF32, poisonF32, poisonF32, poisonF32, poisonU32}
		for i := n; i < n+guard; i++ {
			ps[i] = poison
		}
		dt := r.Float32()
		groups := xpu.Dim3{X: xpu.GroupsFor(n, stepKernel.Block().X)}
		want := append([]Particle(nil), ps...)
		if err := xpu.Run(xpu.Config{Groups: groups, Block: stepKernel.Block()}, step, want, dt, uint32(n)); err != nil {
			t.Fatal(err)
		}
		pb := upload(t, d, ps)
		if err := d.Stream().Launch(stepKernel, groups, pb, dt, uint32(n)); err != nil {
			t.Fatal(err)
		}
		got := download(t, pb)
		for i := range got {
			g, w, p := got[i], want[i], ps[i]
			if i >= n {
				if g.Hits != poisonU32 || !math.IsNaN(float64(g.X)) {
					t.Fatalf("guard ps[%d] = %+v: written past n", i, g)
				}
				continue
			}
			if !closeF32(g.X, w.X, abs(p.X)+abs(p.VX*dt)) || !closeF32(g.Y, w.Y, abs(p.Y)+abs(p.VY*dt)) {
				t.Fatalf("ps[%d] = %+v, reference %+v", i, g, w)
			}
			// Hits depends on a comparison that a rounding difference
			// may flip only right at the threshold.
			if g.Hits != w.Hits && abs(w.X-1) > 1e-6 {
				t.Fatalf("ps[%d].Hits = %d, reference %d", i, g.Hits, w.Hits)
			}
		}
	})
}

func abs(x float32) float32 { return float32(math.Abs(float64(x))) }

func upload[T any](t testing.TB, d *gpu.Device, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

func download[T any](t testing.TB, b *gpu.Buffer[T]) []T {
	t.Helper()
	out, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return out
}
