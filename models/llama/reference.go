package llama

import (
	"fmt"
	"math"
)

// A Reference is the layer in plain Go, in float64: the same
// computation as a Layer's, written from its definition, with a KV cache
// of its own.
type Reference struct {
	cfg    Config
	w      Host
	kc, vc []float64 // Ctx x KVDim
}

// NewReference returns the reference layer of config c and weights w.
func NewReference(c Config, w Host) (*Reference, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := w.check(c); err != nil {
		return nil, err
	}
	return &Reference{cfg: c, w: w, kc: make([]float64, c.Ctx*c.KVDim()), vc: make([]float64, c.Ctx*c.KVDim())}, nil
}

// Step returns the layer's output for in at position pos, as
// [Layer.Step] computes it.
func (r *Reference) Step(in []float32, pos int) ([]float64, error) {
	c := r.cfg
	if len(in) != c.Dim || pos < 0 || pos >= c.Ctx {
		return nil, fmt.Errorf("llama: a reference step of %d values at position %d", len(in), pos)
	}
	x := make([]float64, c.Dim)
	for i, v := range in {
		x[i] = float64(v)
	}
	hd, kv := c.HeadDim(), c.KVDim()
	h := rmsNorm(x, r.w["attn_norm.weight"], c.Eps)
	q := matVec(r.w["attn_q.weight"], h)
	k := matVec(r.w["attn_k.weight"], h)
	copy(r.vc[pos*kv:], matVec(r.w["attn_v.weight"], h))
	rope(q, pos, hd, c.Theta)
	rope(k, pos, hd, c.Theta)
	copy(r.kc[pos*kv:], k)
	attn := make([]float64, c.Dim)
	group := c.Heads / c.KVHeads
	for head := range c.Heads {
		kvh := head / group
		qh := q[head*hd : (head+1)*hd]
		scores := make([]float64, pos+1)
		m := math.Inf(-1)
		for p := range scores {
			for i, v := range qh {
				scores[p] += v * r.kc[p*kv+kvh*hd+i]
			}
			scores[p] /= math.Sqrt(float64(hd))
			m = math.Max(m, scores[p])
		}
		var sum float64
		for p := range scores {
			scores[p] = math.Exp(scores[p] - m)
			sum += scores[p]
		}
		for p, w := range scores {
			for i := range hd {
				attn[head*hd+i] += w / sum * r.vc[p*kv+kvh*hd+i]
			}
		}
	}
	res := matVec(r.w["attn_output.weight"], attn)
	for i := range res {
		res[i] += x[i]
	}
	n2 := rmsNorm(res, r.w["ffn_norm.weight"], c.Eps)
	g, u := matVec(r.w["ffn_gate.weight"], n2), matVec(r.w["ffn_up.weight"], n2)
	for i := range g {
		g[i] = g[i] / (1 + math.Exp(-g[i])) * u[i]
	}
	down := matVec(r.w["ffn_down.weight"], g)
	for i := range down {
		down[i] += res[i]
	}
	return down, nil
}

// rmsNorm returns x / sqrt(mean(x^2) + eps) * w.
func rmsNorm(x []float64, w []float32, eps float32) []float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	scale := 1 / math.Sqrt(s/float64(len(x))+float64(eps))
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * scale * float64(w[i])
	}
	return y
}

// matVec returns w x for w of len(w)/len(x) rows.
func matVec(w []float32, x []float64) []float64 {
	y := make([]float64, len(w)/len(x))
	for r := range y {
		for c, v := range x {
			y[r] += float64(w[r*len(x)+c]) * v
		}
	}
	return y
}

// rope turns each head's pairs (v[2i], v[2i+1]) by pos * theta^(-2i/hd).
func rope(v []float64, pos, hd int, theta float32) {
	for at := 0; at < len(v); at += 2 {
		i := at % hd / 2
		a := float64(pos) * math.Pow(float64(theta), -2*float64(i)/float64(hd))
		c, s := math.Cos(a), math.Sin(a)
		v[at], v[at+1] = v[at]*c-v[at+1]*s, v[at]*s+v[at+1]*c
	}
}
