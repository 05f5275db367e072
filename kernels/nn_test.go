package kernels_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/nn"
	"github.com/goxpu/xpu/kernels/tensor"
)

// TestLayers checks that each layer's operation, on a tensor of three
// dimensions, computes what its kernel of package nn does on the
// matrix of its rows (which nn's tests check against the reference and
// plain Go): bit for bit, since the same kernel runs on the same
// values (the softmax's either of its two forms, whichever the tuner
// took). A strided input is gathered first, to the same result.
func TestLayers(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(9, 10))
		const tokens, heads, dim = 3, 4, 64
		const rows, n = tokens * heads, tokens * heads * dim
		x, xv := matrix(t, d, r, tokens, heads, dim)
		w, _ := matrix(t, d, r, dim)
		b, _ := matrix(t, d, r, dim)
		posv := []uint32{0, 5, 300}
		pb, err := gpu.Upload(d, posv)
		if err != nil {
			t.Fatal(err)
		}
		defer pb.Release()
		pos, _ := tensor.Dense(pb, tokens)
		buf := func(v tensor.Tensor) *gpu.Buffer[float32] {
			b, err := tensor.Buffer[float32](v)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		s := d.Stream()
		// The operations' other forms, which the tuner may take.
		others := map[string]func(y *gpu.Buffer[float32]) error{
			"softmax": func(y *gpu.Buffer[float32]) error {
				return nn.LaunchSoftmaxOnline(s, nn.RowGroups(rows), y, buf(x), rows, dim)
			},
		}
		for _, c := range []struct {
			name   string
			run    func(y tensor.Tensor) error
			direct func(y *gpu.Buffer[float32]) error
		}{
			{"softmax", func(y tensor.Tensor) error { return kernels.Softmax(s, nil, y, x) },
				func(y *gpu.Buffer[float32]) error {
					return nn.LaunchSoftmaxStored(s, nn.RowGroups(rows), y, buf(x), rows, dim)
				}},
			{"rmsnorm", func(y tensor.Tensor) error { return kernels.RMSNorm(s, nil, y, x, w, 1e-6) },
				func(y *gpu.Buffer[float32]) error {
					return nn.LaunchRMSNorm(s, nn.RowGroups(rows), y, buf(x), buf(w), rows, dim, 1e-6)
				}},
			{"layernorm", func(y tensor.Tensor) error { return kernels.LayerNorm(s, nil, y, x, w, b, 1e-6) },
				func(y *gpu.Buffer[float32]) error {
					return nn.LaunchLayerNorm(s, nn.RowGroups(rows), y, buf(x), buf(w), buf(b), rows, dim, 1e-6)
				}},
			{"silu", func(y tensor.Tensor) error { return kernels.SiLU(s, nil, y, x) },
				func(y *gpu.Buffer[float32]) error { return nn.LaunchSiLU(s, nn.ElemGroups(n), y, buf(x), n) }},
			{"gelu", func(y tensor.Tensor) error { return kernels.GELU(s, nil, y, x) },
				func(y *gpu.Buffer[float32]) error { return nn.LaunchGELU(s, nn.ElemGroups(n), y, buf(x), n) }},
			{"add", func(y tensor.Tensor) error { return kernels.Add(s, nil, y, x, x) },
				func(y *gpu.Buffer[float32]) error { return nn.LaunchAdd(s, nn.ElemGroups(n), y, buf(x), buf(x), n) }},
			{"mul", func(y tensor.Tensor) error { return kernels.Mul(s, nil, y, x, x) },
				func(y *gpu.Buffer[float32]) error { return nn.LaunchMul(s, nn.ElemGroups(n), y, buf(x), buf(x), n) }},
			{"rope", func(y tensor.Tensor) error { return kernels.RoPE(s, nil, y, x, pos, 10000) },
				func(y *gpu.Buffer[float32]) error {
					return nn.LaunchRoPE(s, nn.ElemGroups(n/2), y, buf(x), pb, tokens, heads, dim, 10000)
				}},
		} {
			y := poisoned(t, d, tokens, heads, dim)
			if err := c.run(y); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			want := poisoned(t, d, tokens, heads, dim)
			if err := c.direct(buf(want)); err != nil {
				t.Fatalf("%s, launched directly: %v", c.name, err)
			}
			got := download(t, s, y)
			same := slices.Equal(got, download(t, s, want))
			if other := others[c.name]; !same && other != nil {
				if err := other(buf(want)); err != nil {
					t.Fatalf("%s, its other form launched directly: %v", c.name, err)
				}
				same = slices.Equal(got, download(t, s, want))
			}
			if !same {
				t.Errorf("%s: the operation's result differs from its kernel's", c.name)
			}
		}

		// x's rows stored transposed: gathered, then the same softmax.
		xt, _ := matrix(t, d, r, dim, rows)
		xs, _ := xt.Transpose()
		vals := download(t, s, xt)
		xd := make([]float32, n)
		for i := range rows {
			for j := range dim {
				xd[i*dim+j] = vals[j*rows+i]
			}
		}
		sc := dispatch.NewScope()
		defer sc.Release()
		y, want := poisoned(t, d, rows, dim), poisoned(t, d, rows, dim)
		if err := kernels.Softmax(s, sc, y, xs); err != nil {
			t.Fatal(err)
		}
		same := false
		for _, f := range []nn.SoftmaxForm{{}, {Online: true}} {
			if err := nn.LaunchSoftmax(s, nn.RowGroups(rows), f, buf(want), buf(upload(t, d, xd, rows, dim)), rows, dim); err != nil {
				t.Fatal(err)
			}
			same = same || slices.Equal(download(t, s, y), download(t, s, want))
		}
		if !same {
			t.Error("the softmax of a strided x differs from that of its gathered copy")
		}

		if err := kernels.RMSNorm(s, nil, poisoned(t, d, tokens, heads, dim), x, b, 1e-6); err != nil {
			t.Errorf("rmsnorm with b as its weight: %v", err)
		}
		if err := kernels.RMSNorm(s, nil, poisoned(t, d, tokens, heads, dim), x, x, 1e-6); !errors.Is(err, gpu.ErrSize) {
			t.Errorf("a weight of x's shape: %v", err)
		}
		if err := kernels.Add(s, nil, poisoned(t, d, tokens, heads, dim), x, upload(t, d, xv, rows, dim)); !errors.Is(err, gpu.ErrSize) {
			t.Errorf("an addend of another shape: %v", err)
		}
		if err := kernels.RoPE(s, nil, poisoned(t, d, rows, dim), upload(t, d, xv, rows, dim), pos, 1e4); !errors.Is(err, gpu.ErrSize) {
			t.Errorf("RoPE of a matrix: %v", err)
		}
	})
}

func download(t *testing.T, s *gpu.Stream, v tensor.Tensor) []float32 {
	t.Helper()
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	b, err := tensor.Buffer[float32](v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestAttention checks the attention operation against nn.Attend (which
// nn's tests check against float64 attention) on a KV cache filled at
// positions up to the queries' own, within nn's bound: the two may run
// different members, whose tiles group the online softmax's sums apart,
// when a measuring tuner's close race goes either way. And its rule.
func TestAttention(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(13, 14))
		const tokens, heads, kvHeads, dim, ctx, start = 2, 4, 2, 32, 40, 30
		q, _ := matrix(t, d, r, tokens, heads, dim)
		k, _ := matrix(t, d, r, ctx, kvHeads, dim)
		v, _ := matrix(t, d, r, ctx, kvHeads, dim)
		o, want := poisoned(t, d, tokens, heads, dim), poisoned(t, d, tokens, heads, dim)
		s := d.Stream()
		if err := kernels.Attention(s, nil, o, q, k, v, start, 0); err != nil {
			t.Fatal(err)
		}
		buf := func(v tensor.Tensor) *gpu.Buffer[float32] { b, _ := tensor.Buffer[float32](v); return b }
		a := nn.AttentionShape{Tokens: tokens, Heads: heads, KVHeads: kvHeads, Dim: dim, Ctx: ctx, Start: start}
		if err := nn.Attend(nil, s, buf(want), buf(q), buf(k), buf(v), a, float32(1/math.Sqrt(dim))); err != nil {
			t.Fatal(err)
		}
		got, w := download(t, s, o), download(t, s, want)
		for i := range got {
			if d := math.Abs(float64(got[i] - w[i])); !(d <= 0x1p-16) {
				t.Fatalf("element %d: the operation's attention %v, nn.Attend's %v", i, got[i], w[i])
			}
		}
		if err := kernels.Attention(s, nil, o, q, k, v, ctx-1, 0); !errors.Is(err, gpu.ErrSize) {
			t.Errorf("queries past the cache: %v", err)
		}
		if err := kernels.Attention(s, nil, o, q, q, v, 0, 0); !errors.Is(err, gpu.ErrSize) {
			t.Errorf("k of another shape than v: %v", err)
		}
	})
}
