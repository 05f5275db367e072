package nn

import (
	"fmt"
	"math"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/tune"
)

// An AttentionShape is the sizes of an Attention launch.
type AttentionShape struct {
	Tokens, Heads, KVHeads, Dim uint32 // the queries: tokens x heads x dim
	Ctx                         uint32 // the caches' positions: ctx x kvHeads x dim
	Start                       uint32 // the first query token's position
}

// check returns what is wrong with the shape, naming the rule.
func (a AttentionShape) check() error {
	switch {
	case a.Tokens == 0 || a.Heads == 0 || a.KVHeads == 0 || a.Dim == 0:
		return fmt.Errorf("nn: attention %+v: tokens, heads, KV heads and dim are at least 1: %w", a, gpu.ErrSize)
	case a.Heads%a.KVHeads != 0:
		return fmt.Errorf("nn: attention %+v: heads, %d, are a multiple of the KV heads, %d: %w", a, a.Heads, a.KVHeads, gpu.ErrSize)
	case a.Dim > MaxHeadDim:
		return fmt.Errorf("nn: attention %+v: the head dimension, %d, is at most %d: %w", a, a.Dim, MaxHeadDim, gpu.ErrSize)
	case uint64(a.Start)+uint64(a.Tokens) > uint64(a.Ctx):
		return fmt.Errorf("nn: attention %+v: the last token's position, %d, lies past the cache's %d: %w", a, uint64(a.Start)+uint64(a.Tokens)-1, a.Ctx, gpu.ErrSize)
	case a.Heads > maxGroupsX || a.Tokens > maxGroupsX:
		return fmt.Errorf("nn: attention %+v: heads and tokens are at most %d a launch: %w", a, maxGroupsX, gpu.ErrSize)
	case uint64(a.Ctx)*uint64(a.KVHeads)*uint64(a.Dim) >= 1<<32 || uint64(a.Tokens)*uint64(a.Heads)*uint64(a.Dim) >= 1<<32:
		return fmt.Errorf("nn: attention %+v: it indexes below 2^32 elements: %w", a, gpu.ErrSize)
	}
	return nil
}

// Attend records the launch of the member of Attention that tu chooses
// for shape a (a nil tu is tune.Default) for o, the attention of queries
// q over the caches k and v, scaled by scale, on s: the shape's rules
// checked first, errors naming them.
func Attend(tu *tune.Tuner, s *gpu.Stream, o, q, k, v *gpu.Buffer[float32], a AttentionShape, scale float32) error {
	if err := a.check(); err != nil {
		return err
	}
	c, err := tune.Choose(tu, s, Family, a)
	if err != nil {
		return err
	}
	return a.launch(s, c.Member, o, q, k, v, scale)
}

// launch launches member m at shape a.
func (a AttentionShape) launch(s *gpu.Stream, m *gpu.Kernel, o, q, k, v *gpu.Buffer[float32], scale float32) error {
	return s.Launch(m, xpu.Dim3{X: a.Heads, Y: a.Tokens, Z: 1}, o, q, k, v, a.Tokens, a.Heads, a.KVHeads, a.Dim, a.Ctx, a.Start, scale)
}

// Family is Attention's members as a tuner chooses among them, per
// device and bucket of shapes: the positions the last token sees, the
// tokens and the head dimension, each rounded up to a power of two.
var Family = tune.Register(&tune.Family[AttentionShape]{
	Name:    AttentionTemplate.Name(),
	Members: AttentionTemplate.Members(),
	Key: func(a AttentionShape) tune.Key {
		return tune.KeyOf(tune.Dim{Name: "keys", Size: tune.Pow2(int(a.Start + a.Tokens))}, tune.Dim{Name: "tokens", Size: tune.Pow2(int(a.Tokens))},
			tune.Dim{Name: "dim", Size: tune.Pow2(int(a.Dim))})
	},
	Need: func(_ *gpu.Kernel, a AttentionShape) tune.Need {
		return tune.Need{Groups: xpu.Dim3{X: a.Heads, Y: a.Tokens, Z: 1}, BufferBytes: 4 * max(uint64(a.Tokens)*uint64(a.Heads)*uint64(a.Dim), uint64(a.Ctx)*uint64(a.KVHeads)*uint64(a.Dim))}
	},
	Probe: probe,
	Shapes: []AttentionShape{
		{Tokens: 1, Heads: 32, KVHeads: 4, Dim: 64, Ctx: 128, Start: 127},
		{Tokens: 1, Heads: 32, KVHeads: 4, Dim: 64, Ctx: 2048, Start: 2047},
		{Tokens: 1, Heads: 32, KVHeads: 8, Dim: 128, Ctx: 1024, Start: 1023},
		{Tokens: 64, Heads: 32, KVHeads: 4, Dim: 64, Ctx: 64, Start: 0},
	},
})

// probe allocates the operands of an attention of shape a on s's device
// and returns what launches a member on them.
func probe(s *gpu.Stream, a AttentionShape) (func(k *gpu.Kernel) error, func(), error) {
	if err := a.check(); err != nil {
		return nil, nil, err
	}
	d := s.Device()
	var bufs []*gpu.Buffer[float32]
	release := func() {
		for _, b := range bufs {
			b.Release()
		}
	}
	qn, kn := int(a.Tokens*a.Heads*a.Dim), int(a.Ctx*a.KVHeads*a.Dim)
	for _, n := range []int{qn, qn, kn, kn} {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(i%17)/17 - 0.5
		}
		b, err := gpu.Upload(d, v)
		if err != nil {
			release()
			return nil, nil, err
		}
		bufs = append(bufs, b)
	}
	scale := 1 / float32(math.Sqrt(float64(a.Dim)))
	return func(k *gpu.Kernel) error { return a.launch(s, k, bufs[0], bufs[1], bufs[2], bufs[3], scale) }, release, nil
}
