package gpu_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gpuimpl"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// xorTo writes in^a to out: a write-only and a read-only buffer, so that
// a launch of it overwrites what another stream may still read.
func xorTo(t xpu.Thread, out, in []uint32, a, n uint32) {
	if i := t.GlobalX(); i < n {
		out[i] = in[i] ^ a
	}
}

var xorToKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.XorTo",
	Block: xpu.Dim3{X: 64},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
		{Name: "a", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
struct Uniforms { a: u32, n: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> in: array<u32>;
@group(0) @binding(2) var<uniform> u: Uniforms;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < u.n {
		out[i] = in[i] ^ u.a;
	}
}
`},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: xorToCPU},
	},
})

func xorToCPU(b *gpuimpl.CPUBlock) {
	out, in := gpuimpl.CPUView[uint32](b.Buffers[0]), gpuimpl.CPUView[uint32](b.Buffers[1])
	a, n := gpuimpl.CPUUniform[uint32](b.Uniforms, 0), gpuimpl.CPUUniform[uint32](b.Uniforms, 4)
	for lx := range uint32(64) {
		if i := b.Group.X*64 + lx; i < n {
			out[i] = in[i] ^ a
		}
	}
}

// TestStreamHazards records, from one goroutine, a random sequence of
// launches on three streams over overlapping views of three allocations
// (each launch reads one view and writes another, so that consecutive
// launches on different streams conflict read-after-write,
// write-after-read and write-after-write), with flushes of random streams
// between them and reads in the middle. Every result is the reference
// runner's, run in recording order: a stream that submits before another
// whose unflushed launch it depends on would read, or overwrite, the
// wrong values.
func TestStreamHazards(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, allocs, launches = 256, 3, 300
		streams := []*gpu.Stream{d.Stream()}
		for range 2 {
			s, err := d.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			streams = append(streams, s)
		}
		// Each allocation holds 3n elements; a view is n of them at a
		// multiple of n/2, so that views overlap by half or not at all.
		host := make([][]uint32, allocs)
		bufs := make([]*gpu.Buffer[uint32], allocs)
		for i := range host {
			host[i] = randU32s(r, 3*n)
			if i == 0 {
				host[i] = fill(3*n, poisonU32)
			}
			bufs[i] = upload(t, d, host[i])
		}
		view := func(a, w int) (*gpu.Buffer[uint32], []uint32) {
			lo := w * n / 2
			v, err := bufs[a].Slice(lo, lo+n)
			if err != nil {
				t.Fatal(err)
			}
			return v, host[a][lo : lo+n]
		}
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		for i := range launches {
			s := r.IntN(len(streams))
			ya, xa := r.IntN(allocs), r.IntN(allocs-1)
			if xa >= ya {
				xa++
			}
			yb, yh := view(ya, r.IntN(5))
			xb, xh := view(xa, r.IntN(5))
			a := r.Uint32() | 1
			k, f := iaxpyKernel, iaxpy
			if r.IntN(2) == 0 {
				k, f = xorToKernel, xorTo
			}
			if err := streams[s].Launch(k, groups, yb, xb, a, uint32(n)); err != nil {
				t.Fatal(err)
			}
			if err := xpu.Run(cfg, f, yh, xh, a, uint32(n)); err != nil {
				t.Fatal(err)
			}
			switch r.IntN(20) {
			case 0, 1, 2, 3:
				if err := streams[r.IntN(len(streams))].Flush(); err != nil {
					t.Fatal(err)
				}
			case 4:
				b, h := view(r.IntN(allocs), r.IntN(5))
				checkU32(t, fmt.Sprintf("after launch %d", i), download(t, b), h)
			}
		}
		for a := range bufs {
			checkU32(t, fmt.Sprintf("allocation %d at the end", a), download(t, bufs[a]), host[a])
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
	})
}

// TestStreamHazardsConcurrent launches from several goroutines, each on
// a stream of its own, y += x_g on one shared y, and reads of y into a
// buffer of the goroutine's: the launches that write y conflict with
// each other and with the reads, so they must not overlap (on the CPU,
// where a launch runs as it is recorded, they would lose updates, and
// the race detector would see it); their order does not change the sum.
func TestStreamHazardsConcurrent(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, goroutines, launches = 1 << 15, 4, 20
		y := randU32s(r, n)
		yb := upload(t, d, y)
		xs := make([][]uint32, goroutines)
		for g := range xs {
			xs[g] = randU32s(r, n)
		}
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		var wg sync.WaitGroup
		errs := make(chan error, goroutines)
		for g := range goroutines {
			wg.Go(func() { errs <- accumulate(d, yb, xs[g], groups, launches) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, x := range xs {
			for i := range y {
				y[i] += launches * x[i]
			}
		}
		checkU32(t, "the sum", download(t, yb), y)
	})
}

// accumulate launches y += x launches times on a stream of its own, and
// after each a copy of y into a buffer of its own: a read of y that
// conflicts with the other goroutines' writes.
func accumulate(d *gpu.Device, yb *gpu.Buffer[uint32], x []uint32, groups xpu.Dim3, launches int) error {
	s, err := d.NewStream()
	if err != nil {
		return err
	}
	defer s.Close()
	xb, err := gpu.Upload(d, x)
	if err != nil {
		return err
	}
	defer xb.Release()
	cp, err := gpu.Upload(d, fill(len(x), poisonU32))
	if err != nil {
		return err
	}
	defer cp.Release()
	for range launches {
		if err := s.Launch(iaxpyKernel, groups, yb, xb, uint32(1), uint32(len(x))); err != nil {
			return err
		}
		if err := s.Launch(xorToKernel, groups, cp, yb, uint32(0), uint32(len(x))); err != nil {
			return err
		}
	}
	return s.Sync()
}

// TestStreamHazardSequences runs many short random sequences, each on
// fresh streams, so that the ordering of the first launches after a
// stream is made is covered too.
func TestStreamHazardSequences(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 64
		groups := xpu.Dim3{X: 1}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		for round := range 30 {
			a, b := randU32s(r, n), fill(n, poisonU32)
			ab, bb := upload(t, d, a), upload(t, d, b)
			s1, err := d.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			s2, err := d.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			ss := []*gpu.Stream{d.Stream(), s1, s2}
			for range 6 {
				k, f := pick(r)
				y, x, yh, xh := ab, bb, a, b
				if r.IntN(2) == 0 {
					y, x, yh, xh = bb, ab, b, a
				}
				v := r.Uint32() | 1
				if err := ss[r.IntN(3)].Launch(k, groups, y, x, v, uint32(n)); err != nil {
					t.Fatal(err)
				}
				_ = xpu.Run(cfg, f, yh, xh, v, uint32(n))
			}
			if err := ss[r.IntN(3)].Flush(); err != nil {
				t.Fatal(err)
			}
			checkU32(t, fmt.Sprintf("round %d, a", round), download(t, ab), a)
			checkU32(t, fmt.Sprintf("round %d, b", round), download(t, bb), b)
			for _, s := range []*gpu.Stream{s1, s2} {
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			}
			ab.Release()
			bb.Release()
		}
	})
}

func pick(r *rand.Rand) (*gpu.Kernel, func(xpu.Thread, []uint32, []uint32, uint32, uint32)) {
	if r.IntN(2) == 0 {
		return xorToKernel, xorTo
	}
	return iaxpyKernel, iaxpy
}

// TestHazardAllocs checks that ordering streams allocates nothing a
// launch on a backend whose launch allocates nothing (wgpu): a launch on
// the default stream allocates as many times with a second stream live
// (claims tracked) as with none, and a launch on the second stream as
// many again. Elsewhere the counts are logged: the CPU's worker pool
// allocates a varying few a launch (TestOrderAllocs checks the hazard
// check alone).
func TestHazardAllocs(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const n = 256
		y, x := newBuf[uint32](t, d, n), newBuf[uint32](t, d, n)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		launchOn := func(s *gpu.Stream) float64 {
			return testing.AllocsPerRun(200, func() {
				if err := s.Launch(iaxpyKernel, groups, y, x, uint32(3), uint32(n)); err != nil {
					t.Fatal(err)
				}
			})
		}
		alone := launchOn(d.Stream())
		s, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		tracked := launchOn(d.Stream())
		other := launchOn(s)
		t.Logf("allocations a launch: %v alone, %v tracked, %v on a second stream", alone, tracked, other)
		if alone == 0 && (tracked > 0 || other > 0) {
			t.Errorf("allocations a launch: %v with one stream, %v with claims tracked, %v on a second stream", alone, tracked, other)
		}
	})
}

// TestHostHazards runs, from two goroutines on two streams, launches of
// y += x and host code adding one to each element of the same y: the
// host code conflicts with the launches (it may write what they read and
// write), so neither may overlap the other; the sum does not depend on
// their order. Only a device whose buffers are host memory runs host code.
func TestHostHazards(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		if !d.HostMemory() {
			t.Skipf("%s: buffers are not host memory", d.Backend())
		}
		r := newRand(t)
		const n, launches = 1 << 15, 20
		y, x := randU32s(r, n), randU32s(r, n)
		yb, xb := upload(t, d, y), upload(t, d, x)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		onStream := func(f func(s *gpu.Stream) error) {
			s, err := d.NewStream()
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			for range launches {
				if err := f(s); err != nil {
					errs <- err
					return
				}
			}
		}
		wg.Go(func() {
			onStream(func(s *gpu.Stream) error { return s.Launch(iaxpyKernel, groups, yb, xb, uint32(1), uint32(n)) })
		})
		wg.Go(func() {
			onStream(func(s *gpu.Stream) error {
				return s.RunHost(func(mem [][]byte) error {
					for i := range gpu.HostSlice[uint32](mem[0]) {
						gpu.HostSlice[uint32](mem[0])[i]++
					}
					return nil
				}, yb)
			})
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for i := range y {
			y[i] += launches*x[i] + launches
		}
		checkU32(t, "the sum", download(t, yb), y)
	})
}
