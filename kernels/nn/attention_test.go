package nn_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/nn"
	"github.com/goxpu/xpu/kernels/nn/nntest"
	"github.com/goxpu/xpu/tune"
)

// TestMembers checks that every member of Attention is launchable, its
// block its tile's.
func TestMembers(t *testing.T) {
	ms := nn.AttentionTemplate.Members()
	if len(ms) != 4 {
		t.Fatalf("%d members", len(ms))
	}
	for _, m := range ms {
		c, ok := m.Comptime().(nn.Tile)
		if r := m.Refused(); r != "" || !ok || m.Block().X != c.Block {
			t.Errorf("%s: refused %q, comptime %#v, block %v", m.Name(), r, m.Comptime(), m.Block())
		}
	}
}

// TestAttend checks the entry point, with a measuring tuner and with each
// member forced, against attention in float64, and its rules.
func TestAttend(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(11, 12))
		s := d.Stream()
		tuners := []*tune.Tuner{nil}
		for _, m := range nn.AttentionTemplate.Members() {
			tuners = append(tuners, &tune.Tuner{Force: map[string]string{nn.Family.Name: m.Name()}})
		}
		for _, tu := range tuners {
			for _, a := range nntest.AttentionShapes {
				qn, kn := int(a.Tokens*a.Heads*a.Dim), int(a.Ctx*a.KVHeads*a.Dim)
				q, k, v := gputest.Floats(r, qn, -1, 1), gputest.Floats(r, kn, -1, 1), gputest.Floats(r, kn, -1, 1)
				o := upload(t, d, make([]float32, qn))
				scale := 1 / math.Sqrt(float64(a.Dim))
				if err := nn.Attend(tu, s, o, upload(t, d, q), upload(t, d, k), upload(t, d, v), a, float32(scale)); err != nil {
					t.Fatal(err)
				}
				near(t, fmt.Sprintf("attention %+v", a), download(t, s, o), attention(q, k, v, a, scale), 0, 1e-5)
			}
		}
		b := upload(t, d, make([]float32, 1<<12))
		for _, a := range []nn.AttentionShape{
			{Tokens: 1, Heads: 3, KVHeads: 2, Dim: 8, Ctx: 4},
			{Tokens: 1, Heads: 1, KVHeads: 1, Dim: 300, Ctx: 4},
			{Tokens: 2, Heads: 1, KVHeads: 1, Dim: 8, Ctx: 4, Start: 3},
			{Tokens: 0, Heads: 1, KVHeads: 1, Dim: 8, Ctx: 4},
		} {
			if err := nn.Attend(nil, s, b, b, b, b, a, 1); !errors.Is(err, gpu.ErrSize) {
				t.Errorf("attention %+v: %v, want gpu.ErrSize", a, err)
			}
		}
	})
}

// attention is causal attention in float64.
func attention(q, k, v []float32, a nn.AttentionShape, scale float64) []float64 {
	dim, heads, kvh := int(a.Dim), int(a.Heads), int(a.KVHeads)
	o := make([]float64, len(q))
	for tok := range int(a.Tokens) {
		keys := int(a.Start) + tok + 1
		for h := range heads {
			g := h / (heads / kvh)
			qb := (tok*heads + h) * dim
			ss := make([]float64, keys)
			m := math.Inf(-1)
			for p := range keys {
				for i := range dim {
					ss[p] += float64(q[qb+i]) * float64(k[(p*kvh+g)*dim+i])
				}
				ss[p] *= scale
				m = math.Max(m, ss[p])
			}
			var sum float64
			for p := range keys {
				ss[p] = math.Exp(ss[p] - m)
				sum += ss[p]
			}
			for p := range keys {
				for i := range dim {
					o[qb+i] += ss[p] / sum * float64(v[(p*kvh+g)*dim+i])
				}
			}
		}
	}
	return o
}
