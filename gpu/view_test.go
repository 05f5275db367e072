package gpu_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gpuimpl"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// Views ([gpu.Buffer.Slice]) launched, read and written on every device,
// against the reference runner on the corresponding host sub-slices.

// alignedElems returns the fewest elements of size bytes at which a view
// of d starts aligned (Limits.StorageOffsetAlignment), and at least 1.
func alignedElems(d *gpu.Device, size int) int {
	a := max(int(d.Info().Limits.StorageOffsetAlignment), 1)
	for n := 1; ; n++ {
		if n*size%a == 0 {
			return n
		}
	}
}

func slice[T any](t testing.TB, b *gpu.Buffer[T], lo, hi int) *gpu.Buffer[T] {
	t.Helper()
	v, err := b.Slice(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestViewLaunch runs Scramble with its output and input bound as views
// at aligned offsets of larger buffers: the kernel must see exactly the
// views' elements (Scramble bounds itself by arrayLength, len on the CPU),
// and the elements around them must keep their poison.
func TestViewLaunch(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 8 * 4 * 6 * 5 // Scramble's grid of 6x5 blocks of 8x4
		groups := xpu.Dim3{X: 6, Y: 5}
		a := alignedElems(d, 4)
		outLo, inLo := 3*a, a
		in := make([]int32, n)
		for i := range in {
			in[i] = r.Int32() - r.Int32()
		}
		inHost := fill(inLo+n+17, poisonI32)
		copy(inHost[inLo:], in)
		outHost := fill(outLo+n+5, poisonI32)

		// The reference runs on the host sub-slices.
		want := slices.Clone(outHost)
		if err := xpu.Run(xpu.Config{Groups: groups, Block: scrambleKernel.Block()}, scramble, want[outLo:outLo+n], slices.Clone(in)); err != nil {
			t.Fatal(err)
		}
		inb, outb := upload(t, d, inHost), upload(t, d, outHost)
		outv, inv := slice(t, outb, outLo, outLo+n), slice(t, inb, inLo, inLo+n)
		if err := d.Stream().Launch(scrambleKernel, groups, outv, inv); err != nil {
			t.Fatal(err)
		}
		for i, g := range download(t, outb) {
			if g != want[i] {
				t.Fatalf("element %d (view out[%d]) = %#x, reference %#x", i, i-outLo, g, want[i])
			}
		}
		if got := download(t, outv); !slices.Equal(got, want[outLo:outLo+n]) {
			t.Fatal("the view's Download differs from its buffer's elements")
		}
		if got := download(t, inb); !slices.Equal(got, inHost) {
			t.Fatal("the read-only input changed")
		}
	})
}

// exchange writes both its buffers: a kernel to bind two disjoint written
// views of one buffer.
func exchange(t xpu.Thread, a, b []uint32) {
	if i := t.GlobalX(); i < uint32(len(a)) {
		x := a[i]
		a[i] = b[i]*3 + i
		b[i] = x ^ 0x5555
	}
}

var exchangeKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.Exchange",
	Block: xpu.Dim3{X: 64},
	Params: []schema.Param{
		{Name: "a", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessReadWrite, Binding: 0},
		{Name: "b", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessReadWrite, Binding: 1},
	},
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
@group(0) @binding(0) var<storage, read_write> a: array<u32>;
@group(0) @binding(1) var<storage, read_write> b: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < arrayLength(&a) {
		let x = a[i];
		a[i] = b[i] * 3u + i;
		b[i] = x ^ 0x5555u;
	}
}
`},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: exchangeCPU},
	},
})

func exchangeCPU(blk *gpuimpl.CPUBlock) {
	a, b := gpuimpl.CPUView[uint32](blk.Buffers[0]), gpuimpl.CPUView[uint32](blk.Buffers[1])
	for lx := range uint32(64) {
		if i := blk.Group.X*64 + lx; i < uint32(len(a)) {
			x := a[i]
			a[i] = b[i]*3 + i
			b[i] = x ^ 0x5555
		}
	}
}

// TestViewDisjointWritten binds two disjoint views of one buffer, both
// written, to one launch.
func TestViewDisjointWritten(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 500
		a := alignedElems(d, 4)
		aLo, bLo := a, (a+n+a-1)/a*a+a
		host := fill(bLo+n+3, poisonU32)
		copy(host[aLo:], randU32s(r, n))
		copy(host[bLo:], randU32s(r, n))
		want := slices.Clone(host)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		if err := xpu.Run(xpu.Config{Groups: groups, Block: exchangeKernel.Block()}, exchange, want[aLo:aLo+n], want[bLo:bLo+n]); err != nil {
			t.Fatal(err)
		}
		buf := upload(t, d, host)
		if err := d.Stream().Launch(exchangeKernel, groups, slice(t, buf, aLo, aLo+n), slice(t, buf, bLo, bLo+n)); err != nil {
			t.Fatal(err)
		}
		for i, g := range download(t, buf) {
			if g != want[i] {
				t.Fatalf("element %d = %#x, reference %#x", i, g, want[i])
			}
		}
		// Overlapping written views are refused, as a buffer bound twice.
		err := d.Stream().Launch(exchangeKernel, groups, slice(t, buf, aLo, aLo+n), slice(t, buf, aLo+n-1, aLo+2*n-1))
		if !errors.Is(err, gpu.ErrArgs) {
			t.Fatalf("overlapping written views: %v, want ErrArgs", err)
		}
	})
}

// TestViewStruct steps particles through a view whose offset is a
// multiple of both the element size (20 bytes) and the alignment.
func TestViewStruct(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, before, after = 200, 1, 3 // in units of an aligned offset, but after
		lo := before * alignedElems(d, 20)
		ps := make([]Particle, lo+n+after)
		poison := Particle{poisonF32, poisonF32, poisonF32, poisonF32, poisonU32}
		for i := range ps {
			ps[i] = poison
			if i >= lo && i < lo+n {
				ps[i] = Particle{X: r.Float32() * 2, Y: r.Float32(), VX: r.Float32() - 0.5, VY: r.Float32() - 0.5, Hits: r.Uint32N(100)}
			}
		}
		dt := r.Float32()
		groups := xpu.Dim3{X: xpu.GroupsFor(n, stepKernel.Block().X)}
		want := slices.Clone(ps)
		if err := xpu.Run(xpu.Config{Groups: groups, Block: stepKernel.Block()}, step, want[lo:lo+n], dt, uint32(n)); err != nil {
			t.Fatal(err)
		}
		pb := upload(t, d, ps)
		if err := d.Stream().Launch(stepKernel, groups, slice(t, pb, lo, lo+n), dt, uint32(n)); err != nil {
			t.Fatal(err)
		}
		for i, g := range download(t, pb) {
			w, p := want[i], ps[i]
			if i < lo || i >= lo+n {
				if g.Hits != poisonU32 || !math.IsNaN(float64(g.X)) {
					t.Fatalf("ps[%d] = %+v outside the view: written", i, g)
				}
				continue
			}
			// Within 2 ulp of the terms, as TestStructBuffer.
			if !closeF32(g.X, w.X, abs(p.X)+abs(p.VX*dt)) || !closeF32(g.Y, w.Y, abs(p.Y)+abs(p.VY*dt)) {
				t.Fatalf("ps[%d] = %+v, reference %+v", i, g, w)
			}
		}
	})
}

// TestViewMisaligned launches a view whose byte offset breaks the
// device's storage offset alignment: it is refused by name. The CPU
// backend binds at any element (4 bytes), so there every view launches.
func TestViewMisaligned(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const n = 960
		align := int(d.Info().Limits.StorageOffsetAlignment)
		out := upload(t, d, make([]int32, 2*n))
		in := upload(t, d, make([]int32, n))
		groups := xpu.Dim3{X: 6, Y: 5}
		err := d.Stream().Launch(scrambleKernel, groups, slice(t, out, 1, n+1), in)
		if align <= 4 {
			if err != nil {
				t.Fatalf("a view at element 1 on a device that binds at %d bytes: %v", align, err)
			}
			t.Logf("the device binds storage at any element (%d bytes): no view is misaligned", align)
			return
		}
		if !errors.Is(err, gpu.ErrMisaligned) {
			t.Fatalf("a view at byte 4: %v, want ErrMisaligned", err)
		}
		for _, want := range []string{scrambleKernel.Name(), "parameter out", "byte offset 4", fmt.Sprintf("multiples of %d bytes", align)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("refusal %q does not name %q", err, want)
			}
		}
		if err := d.Stream().Launch(scrambleKernel, groups, slice(t, out, align/4, align/4+n), in); err != nil {
			t.Fatalf("a view at byte %d: %v", align, err)
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestViewAliasing binds views of one buffer to one launch: overlapping
// views are refused when either is written, as a buffer bound twice is;
// an empty view is refused.
func TestViewAliasing(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const n = 960
		a := alignedElems(d, 4)
		b := upload(t, d, make([]int32, 4*n+4*a))
		groups := xpu.Dim3{X: 6, Y: 5}
		err := d.Stream().Launch(scrambleKernel, groups, slice(t, b, 0, n), slice(t, b, a, a+n))
		if !errors.Is(err, gpu.ErrArgs) || !strings.Contains(err.Error(), "overlapping views") {
			t.Fatalf("overlapping views, one written: %v, want ErrArgs", err)
		}
		if err := d.Stream().Launch(scrambleKernel, groups, slice(t, b, 0, n), slice(t, b, 0, n)); !errors.Is(err, gpu.ErrArgs) {
			t.Fatalf("the same range twice, one written: %v, want ErrArgs", err)
		}
		if err := d.Stream().Launch(scrambleKernel, groups, b, slice(t, b, 2*n, 3*n)); !errors.Is(err, gpu.ErrArgs) {
			t.Fatalf("a buffer and a view of it, one written: %v, want ErrArgs", err)
		}
		lo := (n + a - 1) / a * a
		err = d.Stream().Launch(scrambleKernel, groups, slice(t, b, 0, n), slice(t, b, lo, lo+n))
		if !errors.Is(err, gpu.ErrArgs) || !strings.Contains(err.Error(), "one written and one read only") {
			t.Fatalf("disjoint views, one written and one read: %v, want ErrArgs", err)
		}
		if err := d.Stream().Launch(scrambleKernel, groups, slice(t, b, 0, 0), slice(t, b, lo, lo+n)); !errors.Is(err, gpu.ErrSize) {
			t.Fatalf("an empty view: %v, want ErrSize", err)
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestViewReadWrite reads and writes views, views of views, and checks
// bounds and release.
func TestViewReadWrite(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 100
		data := randU32s(r, n)
		b, err := gpu.Upload(d, data)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Release()
		v := slice(t, b, 10, 60)
		if v.Len() != 50 || v.Offset() != 10 || !v.IsView() || b.IsView() || v.Device() != d {
			t.Fatalf("view: Len %d Offset %d IsView %v, buffer IsView %v", v.Len(), v.Offset(), v.IsView(), b.IsView())
		}
		if got := download(t, v); !slices.Equal(got, data[10:60]) {
			t.Fatal("view Download differs from the buffer's elements [10:60]")
		}
		w := slice(t, v, 5, 9) // elements [15, 19) of b
		if w.Offset() != 15 || w.Len() != 4 {
			t.Fatalf("a view of a view: Offset %d Len %d, want 15 and 4", w.Offset(), w.Len())
		}
		news := randU32s(r, 4)
		if err := w.Write(news); err != nil {
			t.Fatal(err)
		}
		copy(data[15:19], news)
		if got := download(t, b); !slices.Equal(got, data) {
			t.Fatal("a view's Write changed other elements than its own, or missed its own")
		}
		dst := make([]uint32, 50)
		if err := v.Read(dst); err != nil || !slices.Equal(dst, data[10:60]) {
			t.Fatalf("view Read: %v", err)
		}
		if err := v.Read(make([]uint32, 51)); !errors.Is(err, gpu.ErrSize) {
			t.Fatalf("Read of a view into 51 elements: %v, want ErrSize", err)
		}
		for _, bounds := range [][2]int{{-1, 3}, {4, 3}, {0, 51}} {
			if _, err := v.Slice(bounds[0], bounds[1]); !errors.Is(err, gpu.ErrSize) {
				t.Errorf("Slice%v of 50 elements: %v, want ErrSize", bounds, err)
			}
		}
		empty := slice(t, v, 50, 50)
		if err := empty.Write(nil); err != nil {
			t.Fatalf("Write of an empty view: %v", err)
		}

		// Releasing a view frees nothing; releasing the buffer ends its views.
		w.Release()
		if err := w.Read(make([]uint32, 4)); !errors.Is(err, gpu.ErrReleased) {
			t.Fatalf("Read of a released view: %v, want ErrReleased", err)
		}
		if got := download(t, b); !slices.Equal(got, data) {
			t.Fatal("releasing a view changed its buffer")
		}
		b.Release()
		if err := v.Read(dst); !errors.Is(err, gpu.ErrReleased) {
			t.Fatalf("Read of a view of a released buffer: %v, want ErrReleased", err)
		}
		if _, err := v.Slice(0, 1); !errors.Is(err, gpu.ErrReleased) {
			t.Fatalf("Slice of a view of a released buffer: %v, want ErrReleased", err)
		}
		in := upload(t, d, make([]int32, 960))
		out, err := gpu.NewBuffer[int32](d, 2048)
		if err != nil {
			t.Fatal(err)
		}
		ov := slice(t, out, 0, 960)
		out.Release()
		if err := d.Stream().Launch(scrambleKernel, xpu.Dim3{X: 6, Y: 5}, ov, in); !errors.Is(err, gpu.ErrReleased) {
			t.Fatalf("launch of a view of a released buffer: %v, want ErrReleased", err)
		}
	})
}
