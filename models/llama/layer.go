package llama

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// A Layer is a decoder layer on a device: its weights, its KV cache and
// the temporaries of a step, all owned by it until Release. A matrix in
// a block format is packed into input-major blocks when it is opened,
// unless a provider above the portable kernels takes it as it is.
type Layer struct {
	cfg Config
	sc  *dispatch.Scope          // the packed weights and the temporaries
	w   map[string]tensor.Tensor // by tensor name suffix
	own []func()                 // releases the weights uploaded as they are

	kcache, vcache *gpu.Buffer[float32] // Ctx x KVHeads x HeadDim
	pos            *gpu.Buffer[uint32]  // the step's position, for RoPE
	posT           tensor.Tensor
	// A step's vectors: the normed input, the query before and after
	// RoPE, the key before RoPE, attention's output, the projection, the
	// residual, the MLP's normed input, gate, up, product and output.
	h, q, qr, k, attn, o, r, n2, g, u, sg, m, down tensor.Tensor
}

// Open reads the GGUF file at path onto device d and returns its layer.
func Open(d *gpu.Device, path string) (*Layer, error) {
	c, ts, err := read(path)
	if err != nil {
		return nil, err
	}
	return newLayer(d, c, ts)
}

func newLayer(d *gpu.Device, c Config, ts map[string]raw) (l *Layer, err error) {
	// A position's keys are a view of the cache; a device binds views at
	// offsets that are multiples of its alignment.
	if align := d.Info().Limits.StorageOffsetAlignment; align > 0 && (4*c.KVDim())%int(align) != 0 {
		return nil, fmt.Errorf("llama: a position's keys take %d bytes, not a multiple of %s's storage alignment, %d: %w", 4*c.KVDim(), d.Backend(), align, gpu.ErrMisaligned)
	}
	l = &Layer{cfg: c, sc: dispatch.NewScope(), w: map[string]tensor.Tensor{}}
	defer func() {
		if err != nil {
			l.Release()
		}
	}()
	for name, r := range ts {
		t, err := upload(d, r)
		if err != nil {
			return nil, fmt.Errorf("llama: %s: %w", name, err)
		}
		pack := false
		if t.Layout() == tensor.BlockedRowMajor {
			if pack, err = l.packs(d, t); err != nil {
				return nil, fmt.Errorf("llama: %s: %w", name, err)
			}
		}
		if pack {
			packed, err := kernels.Registry.Convert(d.Stream(), l.sc, tensor.Descriptor{Format: t.Format(), Layout: tensor.BlockedInputMajor}, t)
			if err == nil {
				err = d.Stream().Sync()
			}
			b, _ := tensor.Buffer[uint32](t)
			b.Release()
			if err != nil {
				return nil, fmt.Errorf("llama: %s: %w", name, err)
			}
			t = packed
		} else if b, err := tensor.Buffer[float32](t); err == nil {
			l.own = append(l.own, b.Release)
		} else if b, err := tensor.Buffer[uint32](t); err == nil {
			l.own = append(l.own, b.Release)
		}
		l.w[name] = t
	}
	f32 := tensor.Descriptor{Format: tensor.F32, Layout: tensor.Contiguous}
	vec := func(shape ...int) tensor.Tensor {
		if err != nil {
			return tensor.Tensor{}
		}
		var t tensor.Tensor
		t, err = l.sc.Tensor(d, f32, shape)
		return t
	}
	hd := c.HeadDim()
	l.h, l.q, l.qr, l.k, l.attn = vec(c.Dim), vec(1, c.Heads, hd), vec(1, c.Heads, hd), vec(1, c.KVHeads, hd), vec(1, c.Heads, hd)
	l.o, l.r, l.n2, l.down = vec(c.Dim), vec(c.Dim), vec(c.Dim), vec(c.Dim)
	l.g, l.u, l.sg, l.m = vec(c.Hidden), vec(c.Hidden), vec(c.Hidden), vec(c.Hidden)
	if err != nil {
		return nil, err
	}
	if l.kcache, err = gpu.NewBuffer[float32](d, c.Ctx*c.KVDim()); err != nil {
		return nil, err
	}
	if l.vcache, err = gpu.NewBuffer[float32](d, c.Ctx*c.KVDim()); err != nil {
		return nil, err
	}
	if l.pos, err = gpu.NewBuffer[uint32](d, 1); err != nil {
		return nil, err
	}
	if l.posT, err = tensor.Dense(l.pos, 1); err != nil {
		return nil, err
	}
	return l, nil
}

// packs reports whether the matrix w, in row-major blocks, is to be
// packed into input-major blocks on d: whether the mat-vec that takes it
// as it is would be the portable kernel, which reads input-major blocks
// faster, its neighbouring work-items on neighbouring bytes. A provider
// above the portable kernels (a SIMD one on the CPU) takes the row-major
// blocks as they are.
func (l *Layer) packs(d *gpu.Device, w tensor.Tensor) (bool, error) {
	f32 := tensor.Descriptor{Format: tensor.F32, Layout: tensor.Contiguous}
	y, err := l.sc.Tensor(d, f32, []int{w.Dim(0)})
	if err != nil {
		return false, err
	}
	x, err := l.sc.Tensor(d, f32, []int{w.Dim(1)})
	if err != nil {
		return false, err
	}
	p, err := kernels.Registry.Lookup(d, kernels.OpMatVec, nil, y, w, x)
	if err != nil {
		return false, err
	}
	return p.Kernel != nil && p.Kernel.Priority <= dispatch.Portable, nil
}

// upload puts a tensor of the file on d: a matrix in its format (in
// row-major blocks for a block format), a norm as a vector.
func upload(d *gpu.Device, r raw) (tensor.Tensor, error) {
	if r.format == tensor.F32 {
		v, err := decode(r)
		if err != nil {
			return tensor.Tensor{}, err
		}
		b, err := gpu.Upload(d, v)
		if err != nil {
			return tensor.Tensor{}, err
		}
		if r.rows == 1 {
			return tensor.Dense(b, r.cols)
		}
		return tensor.Dense(b, r.rows, r.cols)
	}
	b, err := gpu.Upload(d, quant.Words(r.data))
	if err != nil {
		return tensor.Tensor{}, err
	}
	return tensor.Blocked(b, r.format, tensor.BlockedRowMajor, r.rows, r.cols)
}

// Config returns the layer's config.
func (l *Layer) Config() Config { return l.cfg }

// Step records on s the layer's work for one token at position pos
// (from 0, one more each step): out = layer(in), in and out vectors of
// Dim, its keys and values stored in the cache at pos. It syncs nothing
// but the position's upload.
func (l *Layer) Step(s *gpu.Stream, out, in tensor.Tensor, pos int) error {
	c := l.cfg
	if pos < 0 || pos >= c.Ctx {
		return fmt.Errorf("llama: position %d outside the cache's %d: %w", pos, c.Ctx, gpu.ErrSize)
	}
	if err := l.pos.Write([]uint32{uint32(pos)}); err != nil {
		return err
	}
	hd, kv := c.HeadDim(), c.KVDim()
	row := func(cache *gpu.Buffer[float32], shape ...int) (tensor.Tensor, error) {
		v, err := cache.Slice(pos*kv, (pos+1)*kv)
		if err != nil {
			return tensor.Tensor{}, err
		}
		return tensor.Dense(v, shape...)
	}
	kRow, err := row(l.kcache, 1, c.KVHeads, hd)
	if err != nil {
		return err
	}
	vRow, err := row(l.vcache, kv)
	if err != nil {
		return err
	}
	kc, err := tensor.Dense(l.kcache, c.Ctx, c.KVHeads, hd)
	if err != nil {
		return err
	}
	vc, err := tensor.Dense(l.vcache, c.Ctx, c.KVHeads, hd)
	if err != nil {
		return err
	}
	flat := func(t tensor.Tensor, n int) tensor.Tensor {
		b, _ := tensor.Buffer[float32](t)
		f, _ := tensor.Dense(b, n)
		return f
	}
	w := l.w
	sc := l.sc
	for _, step := range []func() error{
		func() error { return kernels.RMSNorm(s, sc, l.h, in, w["attn_norm.weight"], c.Eps) },
		func() error { return kernels.MatVec(s, sc, flat(l.q, c.Dim), w["attn_q.weight"], l.h) },
		func() error { return kernels.MatVec(s, sc, flat(l.k, kv), w["attn_k.weight"], l.h) },
		func() error { return kernels.MatVec(s, sc, vRow, w["attn_v.weight"], l.h) },
		func() error { return kernels.RoPE(s, sc, l.qr, l.q, l.posT, c.Theta) },
		func() error { return kernels.RoPE(s, sc, kRow, l.k, l.posT, c.Theta) },
		func() error { return kernels.Attention(s, sc, l.attn, l.qr, kc, vc, pos, 0) },
		func() error { return kernels.MatVec(s, sc, l.o, w["attn_output.weight"], flat(l.attn, c.Dim)) },
		func() error { return kernels.Add(s, sc, l.r, in, l.o) },
		func() error { return kernels.RMSNorm(s, sc, l.n2, l.r, w["ffn_norm.weight"], c.Eps) },
		func() error { return kernels.MatVec(s, sc, l.g, w["ffn_gate.weight"], l.n2) },
		func() error { return kernels.MatVec(s, sc, l.u, w["ffn_up.weight"], l.n2) },
		func() error { return kernels.SiLU(s, sc, l.sg, l.g) },
		func() error { return kernels.Mul(s, sc, l.m, l.sg, l.u) },
		func() error { return kernels.MatVec(s, sc, l.down, w["ffn_down.weight"], l.m) },
		func() error { return kernels.Add(s, sc, out, l.r, l.down) },
	} {
		if err := step(); err != nil {
			return fmt.Errorf("llama: step at position %d: %w", pos, err)
		}
	}
	return nil
}

// Release frees the layer's weights, cache and temporaries; its work
// must be done.
func (l *Layer) Release() {
	for _, release := range l.own {
		release()
	}
	for _, b := range []*gpu.Buffer[float32]{l.kcache, l.vcache} {
		if b != nil {
			b.Release()
		}
	}
	if l.pos != nil {
		l.pos.Release()
	}
	l.sc.Release()
}
