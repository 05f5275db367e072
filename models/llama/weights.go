package llama

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The layer's tensors, by their GGUF names' suffix ("blk.0." first),
// their rows and columns for a config (a norm's rows are 1), in the
// order a file holds them.
var tensorNames = []struct {
	name       string
	rows, cols func(Config) int
	norm       bool
}{
	{"attn_norm.weight", one, dim, true},
	{"attn_q.weight", dim, dim, false},
	{"attn_k.weight", kvDim, dim, false},
	{"attn_v.weight", kvDim, dim, false},
	{"attn_output.weight", dim, dim, false},
	{"ffn_norm.weight", one, dim, true},
	{"ffn_gate.weight", hidden, dim, false},
	{"ffn_up.weight", hidden, dim, false},
	{"ffn_down.weight", dim, hidden, false},
}

func one(Config) int      { return 1 }
func dim(c Config) int    { return c.Dim }
func kvDim(c Config) int  { return c.KVDim() }
func hidden(c Config) int { return c.Hidden }

// Host is a layer's weights on the host, by tensor name suffix
// ("attn_q.weight"): each matrix row-major, rows the outputs (as GGUF
// holds them: its first dimension is the columns).
type Host map[string][]float32

// Random returns weights for c drawn from r: matrices uniform in ±1/sqrt
// of their columns, as an initialization would make them, norms about 1.
func Random(c Config, r *rand.Rand) Host {
	h := Host{}
	for _, t := range tensorNames {
		n, cols := t.rows(c)*t.cols(c), t.cols(c)
		v := make([]float32, n)
		for i := range v {
			if t.norm {
				v[i] = 0.5 + r.Float32()
			} else {
				v[i] = (2*r.Float32() - 1) / float32(math.Sqrt(float64(cols)))
			}
		}
		h[t.name] = v
	}
	return h
}

// check returns what is missing from h, or of another size than c's.
func (h Host) check(c Config) error {
	for _, t := range tensorNames {
		if n := t.rows(c) * t.cols(c); len(h[t.name]) != n {
			return fmt.Errorf("llama: weight %s holds %d values; the config's %d x %d makes %d", t.name, len(h[t.name]), t.rows(c), t.cols(c), n)
		}
	}
	return nil
}
