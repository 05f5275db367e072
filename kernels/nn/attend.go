package nn

import (
	"fmt"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
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

// Attend records Attention's launch for o, the attention of queries q
// over the caches k and v at shape a, scaled by scale, on s: the shape's
// rules checked first, errors naming them.
func Attend(s *gpu.Stream, o, q, k, v *gpu.Buffer[float32], a AttentionShape, scale float32) error {
	if err := a.check(); err != nil {
		return err
	}
	return LaunchAttention(s, xpu.Dim3{X: a.Heads, Y: a.Tokens, Z: 1}, o, q, k, v, a.Tokens, a.Heads, a.KVHeads, a.Dim, a.Ctx, a.Start, scale)
}
