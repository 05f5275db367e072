package nn

import "github.com/goxpu/xpu"

// MaxHeadDim bounds Attention's head dimension: the query sits in
// shared memory, and each work-item accumulates the output dimensions
// it owns, MaxHeadDim/Block of them, in a private array.
const MaxHeadDim = 256

// maxOwned is the most output dimensions a work-item owns: those of
// the smallest member's block.
const maxOwned = MaxHeadDim / 32

// A Tile is the comptime configuration of a member of Attention: Block
// work-items a block, each scoring one position of a tile of Block
// positions and owning every Block-th output dimension.
type Tile struct{ Block uint32 }

// Attention computes causal scaled dot-product attention of queries
// against a KV cache, one block per (head, query token), launched over
// (heads, tokens). q and o are (tokens x heads x dim); the caches k and v
// are (ctx x kvHeads x dim), the KV cache layout: position p's keys of
// every KV head together, so that appending a token's keys writes one
// contiguous row. Query token i sits at position start+i and attends to
// positions 0 through start+i; query head h reads KV head
// h / (heads/kvHeads) (grouped-query attention; heads a multiple of
// kvHeads). dim is at most MaxHeadDim, which the host checks.
//
// It is the flash-style online softmax over tiles of c.Block positions:
// each work-item scores one position of the tile against the query (the
// scores scaled by scale, 1/sqrt(dim) for the usual attention), the
// tile's maximum updates the running one, each work-item turns its
// score into its weight exp(s - max), and each work-item then adds the
// tile's weighted values into the output dimensions it owns, the
// running sum and accumulators rescaled when the maximum grows. Nothing
// of the size of the context is stored. The members differ in the tile:
// a small one wastes less of a short context and leaves each work-item
// more dimensions, a large one takes more positions a barrier.
//
//xpu:kernel block=c.Block len(o)=tokens*heads*dim len(q)=tokens*heads*dim len(k)=ctx*kvHeads*dim len(v)=ctx*kvHeads*dim
//xpu:instance Attn32 Tile{Block: 32}
//xpu:instance Attn64 Tile{Block: 64}
//xpu:instance Attn128 Tile{Block: 128}
//xpu:instance Attn256 Tile{Block: 256}
//xpu:requires c.Block >= 32 && c.Block <= MaxHeadDim && MaxHeadDim%c.Block == 0
func Attention(t xpu.Thread, c Tile, o, q, k, v []float32, tokens, heads, kvHeads, dim, ctx, start uint32, scale float32) {
	qs := xpu.Shared[float32](t, MaxHeadDim)
	ss := xpu.Shared[float32](t, int(c.Block)) // the tile's scores, then weights
	l := t.LocalX()
	h, tok := t.GroupX(), t.GroupY()
	kvh := h / (heads / kvHeads)
	qbase := (tok*heads + h) * dim
	for d := l; d < dim; d += c.Block {
		qs[d] = q[qbase+d]
	}
	t.Barrier()
	keys := min(start+tok+1, ctx) // the positions the token sees
	m := xpu.Float32FromBits(negInf)
	var sum float32
	var acc [maxOwned]float32 // acc[j]: output dimension l + j*Block
	for k0 := uint32(0); k0 < keys; k0 += c.Block {
		p := k0 + l
		s := xpu.Float32FromBits(negInf)
		if p < keys {
			kbase := (p*kvHeads + kvh) * dim
			var dot float32
			for d := uint32(0); d < dim; d++ {
				dot += qs[d] * k[kbase+d]
			}
			s = dot * scale
		}
		ss[l] = s
		t.Barrier()
		// Every work-item takes the tile's maximum, in the same order, so
		// that all hold the same running maximum.
		n := m
		count := min(keys-k0, c.Block)
		for j := uint32(0); j < count; j++ {
			n = maxNaN(n, ss[j])
		}
		t.Barrier()
		if p < keys {
			ss[l] = rescale(s, n)
		} else {
			ss[l] = 0
		}
		t.Barrier()
		r := rescale(m, n)
		sum *= r
		for j := uint32(0); j < MaxHeadDim/c.Block; j++ {
			acc[j] *= r
		}
		for j := uint32(0); j < count; j++ {
			w := ss[j]
			sum += w
			vbase := ((k0+j)*kvHeads + kvh) * dim
			for o := uint32(0); o < MaxHeadDim/c.Block; o++ {
				if d := l + o*c.Block; d < dim {
					acc[o] += w * v[vbase+d]
				}
			}
		}
		m = n
		t.Barrier()
	}
	for j := uint32(0); j < MaxHeadDim/c.Block; j++ {
		if d := l + j*c.Block; d < dim {
			o[qbase+d] = acc[j] / sum
		}
	}
}
