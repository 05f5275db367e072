package matmul

// This file declares Tiled's members as a family the tuner chooses among
// (package tune), and Multiply, the plain product C = A*B, which launches
// the member it chooses through Sgemm's path.

import (
	"fmt"
	"slices"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/tune"
)

// Shape is the sizes of a product C = A*B: C is M x N, A is M x K and B
// is K x N. It is the family's problem for every layout of Sgemm too: the
// transposes change only how the staged tiles are loaded, not which tile
// suits the shape, so the tuner measures the plain product.
type Shape struct{ M, N, K int }

func (p Shape) String() string { return fmt.Sprintf("%dx%dx%d", p.M, p.N, p.K) }

// Family is the members of Tiled, then those of TiledWave and TiledVec, as a tuner
// chooses among them under Tiled's name, per device and bucket of shapes: M, N and K each rounded up to a power of two.
// Its Shapes, which `xpu tune` and the tuning benchmark run, have sizes
// from 64 to 2048, square and not, multiples of the tiles and not, each
// of at most 2^31 multiply-adds, which a software Vulkan device runs in
// about a second.
var Family = tune.Register(&tune.Family[Shape]{
	Name:    TiledTemplate.Name(),
	Members: slices.Concat(TiledTemplate.Members(), TiledWaveTemplate.Members(), TiledVecTemplate.Members()),
	Key: func(p Shape) tune.Key {
		return tune.KeyOf(tune.Dim{Name: "M", Size: tune.Pow2(p.M)}, tune.Dim{Name: "N", Size: tune.Pow2(p.N)}, tune.Dim{Name: "K", Size: tune.Pow2(p.K)})
	},
	Need: func(k *gpu.Kernel, p Shape) tune.Need {
		tile, _ := k.Comptime().(Tile)
		largest := 4 * uint64(max(p.M*p.K, p.K*p.N, p.M*p.N))
		return tune.Need{Groups: Groups(tile, uint32(p.M), uint32(p.N)), BufferBytes: largest}
	},
	Probe: probe,
	Shapes: []Shape{
		{64, 64, 64}, {100, 100, 100}, {128, 128, 128}, {256, 256, 256},
		{300, 200, 500}, {512, 512, 512}, {64, 2048, 512}, {2048, 64, 512},
		{1000, 1000, 100}, {1024, 1024, 1024}, {1536, 768, 128}, {2048, 2048, 64},
	},
})

// probe allocates the operands of a product of shape p on s's device, A
// and B filled with small values, and returns what launches a member on
// them.
func probe(s *gpu.Stream, p Shape) (func(k *gpu.Kernel) error, func(), error) {
	if err := p.check(); err != nil {
		return nil, nil, err
	}
	d := s.Device()
	fill := func(n int) (*gpu.Buffer[float32], error) {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(i%17) / 17
		}
		return gpu.Upload(d, v)
	}
	var bufs []*gpu.Buffer[float32]
	release := func() {
		for _, b := range bufs {
			b.Release()
		}
	}
	for _, n := range []int{p.M * p.N, p.M * p.K, p.K * p.N} {
		b, err := fill(n)
		if err != nil {
			release()
			return nil, nil, err
		}
		bufs = append(bufs, b)
	}
	g := product(p, bufs[0], bufs[1], bufs[2])
	run := func(k *gpu.Kernel) error { return g.launch(s, k) }
	return run, release, nil
}

// check returns an error naming the rule when p is no product's shape.
func (p Shape) check() error {
	if p.M < 1 || p.N < 1 || p.K < 1 || p.M > 1<<16 || p.N > 1<<16 || p.K > 1<<16 || uint64(p.M)*uint64(max(p.N, p.K)) > 1<<31 || uint64(p.K)*uint64(p.N) > 1<<31 {
		return fmt.Errorf("matmul: shape %v: each size from 1 to 65536 and each matrix under 2^31 elements: %w", p, gpu.ErrArgs)
	}
	return nil
}

// Multiply launches on s the member of Tiled that t chooses for shape p
// (a nil t is tune.Default) to compute C = A*B, C of p.M x p.N, A of p.M
// x p.K and B of p.K x p.N elements, row-major and packed (each row's
// leading dimension its length); it returns the choice. It is Sgemm with
// neither matrix transposed, alpha 1 and beta 0. A product no member can
// run on the device is refused with the tuner's *tune.RefusalError.
func Multiply(t *tune.Tuner, s *gpu.Stream, C, A, B *gpu.Buffer[float32], p Shape) (*tune.Choice, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	return product(p, C, A, B).run(t, s, "Multiply")
}
