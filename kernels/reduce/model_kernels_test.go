package reduce_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/reduce"
	"github.com/goxpu/xpu/kernels/reduce/reducetest"
)

// waveWidths are the wave widths a device may run the wave kernels at.
var waveWidths = []uint32{4, 8, 16, 32, 64}

// modelForm is one form's kernels as TestModel runs them: on the
// reference runner with its options.
type modelForm struct {
	name                               string
	o                                  gpu.ReferenceOptions
	sum, dot, max, argMax, pairs, scan *gpu.Kernel
	sumU, scanU                        *gpu.Kernel
}

// modelForms are the shared form and the wave form at every wave width.
func modelForms() []modelForm {
	fs := []modelForm{{"shared", gpu.ReferenceOptions{}, reduce.SumSharedKernel, reduce.DotSharedKernel, reduce.MaxSharedKernel,
		reduce.ArgMaxSharedKernel, reduce.ArgMaxPairsSharedKernel, reduce.ScanSharedKernel,
		reduce.SumUint32SharedKernel, reduce.ScanUint32SharedKernel}}
	for _, w := range waveWidths {
		fs = append(fs, modelForm{fmt.Sprintf("wave=%d", w), gpu.ReferenceOptions{Wave: w}, reduce.SumWaveKernel, reduce.DotWaveKernel,
			reduce.MaxWaveKernel, reduce.ArgMaxWaveKernel, reduce.ArgMaxPairsWaveKernel, reduce.ScanWaveKernel,
			reduce.SumUint32WaveKernel, reduce.ScanUint32WaveKernel})
	}
	return fs
}

// TestModel runs every kernel on the reference runner, the wave kernels
// at every wave width, over a pass of several blocks of several tiles,
// and checks each block's result against the model: the arithmetic of
// each form must hold at whatever width a device runs it, not only at
// the widths of the devices here, and a work-item's chain over its tiles
// must keep the model's rules (the first of equal maxima).
func TestModel(t *testing.T) {
	p := reducetest.Pass{N: 5000, Chunk: 1024}
	if testing.Short() || underRace {
		p = reducetest.Pass{N: 1000, Chunk: 512}
	}
	r := rand.New(rand.NewPCG(1, 2))
	g := xpu.Dim3{X: p.Groups()}
	chunkOf := func(x []float32, b uint32) []float32 { return x[b*p.Chunk : min((b+1)*p.Chunk, p.N)] }
	h := int(p.Tiles() + 255)
	for _, f := range modelForms() {
		o := f.o
		t.Run(f.name, func(t *testing.T) {
			x, y := reducetest.UnitFloats(r, p.N), reducetest.UnitFloats(r, p.N)
			out := make([]float32, p.Groups())
			if err := f.sum.ReferenceWith(o, g, out, x, p.N, p.Chunk); err != nil {
				t.Fatal(err)
			}
			for b, got := range out {
				if want, abs := sum64(chunkOf(x, uint32(b))); !within(got, want, abs, h) {
					t.Errorf("Sum block %d: %v, want %v within %d*2^-24*%v", b, got, want, h, abs)
				}
			}
			if err := f.dot.ReferenceWith(o, g, out, x, y, p.N, p.Chunk); err != nil {
				t.Fatal(err)
			}
			for b, got := range out {
				s := b * int(p.Chunk)
				e := s + len(chunkOf(x, uint32(b)))
				if want, abs := dot64(x[s:e], y[s:e]); !within(got, want, abs, h+1) {
					t.Errorf("Dot block %d: %v, want %v", b, got, want)
				}
			}
			for _, x := range [][]float32{reducetest.Seasoned(r, p.N), reducetest.NoNaN(r, p.N), reducetest.Ties(r, p.N)} {
				if err := f.max.ReferenceWith(o, g, out, x, p.N, p.Chunk); err != nil {
					t.Fatal(err)
				}
				keys, indices := make([]uint32, p.Groups()), make([]uint32, p.Groups())
				if err := f.argMax.ReferenceWith(o, g, keys, indices, x, p.N, p.Chunk); err != nil {
					t.Fatal(err)
				}
				for b := range out {
					c := chunkOf(x, uint32(b))
					if want := maxOf(c); !sameFloat(out[b], want) {
						t.Errorf("Max block %d: %v (%#x), want %v (%#x)", b, out[b], math.Float32bits(out[b]), want, math.Float32bits(want))
					}
					if want := uint32(b)*p.Chunk + uint32(argMaxOf(c)); indices[b] != want {
						t.Errorf("ArgMax block %d: index %d (x=%v), want %d (x=%v)", b, indices[b], x[indices[b]], want, x[want])
					}
				}
			}
			keys, indices := reducetest.Pairs(r, p.N)
			ok, oi := make([]uint32, p.Groups()), make([]uint32, p.Groups())
			if err := f.pairs.ReferenceWith(o, g, ok, oi, keys, indices, p.N, p.Chunk); err != nil {
				t.Fatal(err)
			}
			for b := range ok {
				s, e := uint32(b)*p.Chunk, min(uint32(b+1)*p.Chunk, p.N)
				bk, bi := keys[s], indices[s]
				for i := s; i < e; i++ {
					if keys[i] > bk || keys[i] == bk && indices[i] < bi {
						bk, bi = keys[i], indices[i]
					}
				}
				if ok[b] != bk || oi[b] != bi {
					t.Errorf("ArgMaxPairs block %d: (%#x, %d), want (%#x, %d)", b, ok[b], oi[b], bk, bi)
				}
			}
			offsets := reducetest.UnitFloats(r, p.Groups())
			for _, exclusive := range []uint32{0, 1} {
				scanned := make([]float32, p.N)
				if err := f.scan.ReferenceWith(o, g, scanned, x, offsets, p.N, p.Chunk, exclusive); err != nil {
					t.Fatal(err)
				}
				for b := range p.Groups() {
					want, abs := float64(offsets[b]), math.Abs(float64(offsets[b]))
					for i := b * p.Chunk; i < min((b+1)*p.Chunk, p.N); i++ {
						if exclusive == 0 {
							want += float64(x[i])
							abs += math.Abs(float64(x[i]))
						}
						if !within(scanned[i], want, abs, h+2) {
							t.Fatalf("Scan exclusive=%d, element %d: %v, want %v", exclusive, i, scanned[i], want)
						}
						if exclusive != 0 {
							want += float64(x[i])
							abs += math.Abs(float64(x[i]))
						}
					}
				}
			}
			u := gputest.AnyUints(r, int(p.N))
			uoff := gputest.AnyUints(r, int(p.Groups()))
			usums := make([]uint32, p.Groups())
			if err := f.sumU.ReferenceWith(o, g, usums, u, p.N, p.Chunk); err != nil {
				t.Fatal(err)
			}
			for _, exclusive := range []uint32{0, 1} {
				uscan := make([]uint32, p.N)
				if err := f.scanU.ReferenceWith(o, g, uscan, u, uoff, p.N, p.Chunk, exclusive); err != nil {
					t.Fatal(err)
				}
				for b := range p.Groups() {
					var sum uint32
					acc := uoff[b]
					for i := b * p.Chunk; i < min((b+1)*p.Chunk, p.N); i++ {
						sum += u[i]
						if exclusive == 0 {
							acc += u[i]
						}
						if uscan[i] != acc {
							t.Fatalf("ScanUint32 exclusive=%d, element %d: %d, want %d", exclusive, i, uscan[i], acc)
						}
						if exclusive != 0 {
							acc += u[i]
						}
					}
					if usums[b] != sum {
						t.Errorf("SumUint32 block %d: %d, want %d", b, usums[b], sum)
					}
				}
			}
		})
	}
}
