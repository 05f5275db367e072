package nn

import "github.com/goxpu/xpu"

// attnBlock is Attention's block: a key of a tile, and one or two
// dimensions of the output, a work-item.
const attnBlock = 128

// MaxHeadDim bounds Attention's head dimension: each work-item
// accumulates two of the output's dimensions, and the query sits in
// shared memory.
const MaxHeadDim = 2 * attnBlock

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
// It is the flash-style online softmax over tiles of attnBlock
// positions: each work-item scores one position of the tile against the
// query (the scores scaled by scale, 1/sqrt(dim) for the usual
// attention), the tile's maximum updates the running one, each
// work-item turns its score into its weight exp(s - max), and each
// work-item then adds the tile's weighted values into the output
// dimensions it owns, the running sum and accumulators rescaled when
// the maximum grows. Nothing of the size of the context is stored.
//
//xpu:kernel block=128 len(o)=tokens*heads*dim len(q)=tokens*heads*dim len(k)=ctx*kvHeads*dim len(v)=ctx*kvHeads*dim
func Attention(t xpu.Thread, o, q, k, v []float32, tokens, heads, kvHeads, dim, ctx, start uint32, scale float32) {
	qs := xpu.Shared[float32](t, MaxHeadDim)
	ss := xpu.Shared[float32](t, attnBlock) // the tile's scores, then weights
	l := t.LocalX()
	h, tok := t.GroupX(), t.GroupY()
	kvh := h / (heads / kvHeads)
	qbase := (tok*heads + h) * dim
	for d := l; d < dim; d += attnBlock {
		qs[d] = q[qbase+d]
	}
	t.Barrier()
	keys := min(start+tok+1, ctx) // the positions the token sees
	m := xpu.Float32FromBits(negInf)
	var sum, acc0, acc1 float32
	for k0 := uint32(0); k0 < keys; k0 += attnBlock {
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
		count := min(keys-k0, attnBlock)
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
		c := rescale(m, n)
		sum *= c
		acc0 *= c
		acc1 *= c
		for j := uint32(0); j < count; j++ {
			w := ss[j]
			sum += w
			vbase := ((k0+j)*kvHeads + kvh) * dim
			if l < dim {
				acc0 += w * v[vbase+l]
			}
			if l+attnBlock < dim {
				acc1 += w * v[vbase+l+attnBlock]
			}
		}
		m = n
		t.Barrier()
	}
	if l < dim {
		o[qbase+l] = acc0 / sum
	}
	if l+attnBlock < dim {
		o[qbase+l+attnBlock] = acc1 / sum
	}
}
