package llama_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/models/llama"
)

// config is a small layer of llama's shape: two query heads a KV head,
// a head dimension of 64, positions enough for the steps.
var config = llama.Config{Dim: 256, Heads: 4, KVHeads: 2, Hidden: 512, Ctx: 48, Eps: 1e-5, Theta: 10000}

// steps is how many tokens the layer decodes.
const steps = 32

// formats puts the attention's matrices in Q8_0 and the MLP's in Q4_0.
func formats(name string) tensor.Format {
	if strings.HasPrefix(name, "attn_") {
		return tensor.Q8_0
	}
	return tensor.Q4_0
}

// writeModel writes a layer of random weights to a GGUF file and
// returns its path.
func writeModel(t *testing.T, r *rand.Rand) string {
	t.Helper()
	var b bytes.Buffer
	if err := llama.Write(&b, config, llama.Random(config, r), formats); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "layer.gguf")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tolerance bounds an output element against the float64 reference,
// relative to the largest output of its step. A float32 dot product of n
// terms of random signs errs by about sqrt(n) roundings of 2^-24: 23 at
// the MLP's 512 columns, 1.4e-6; the layer chains a few such stages,
// with norms, softmax and exp of a few ulp between, and its KV cache
// carries 32 steps. 1e-5 bounds that; the devices here came within
// 2e-7.
const tolerance = 1e-5

// TestDecode writes a layer to a GGUF file (Q8_0 attention, Q4_0 MLP,
// f32 norms), opens it on every device and decodes 32 tokens, each
// step's output against the plain-Go reference's on the same decoded
// weights.
func TestDecode(t *testing.T) {
	path := writeModel(t, rand.New(rand.NewPCG(1, 2)))
	c, host, err := llama.ReadHost(path)
	if err != nil {
		t.Fatal(err)
	}
	if c != config {
		t.Fatalf("the file's config %+v, written %+v", c, config)
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		l, err := llama.Open(d, path)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Release()
		ref, err := llama.NewReference(c, host)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		in, out := vector(t, d), vector(t, d)
		inb, _ := tensor.Buffer[float32](in)
		outb, _ := tensor.Buffer[float32](out)
		s := d.Stream()
		worst := 0.0
		for pos := range steps {
			x := gputest.Floats(r, c.Dim, -1, 1)
			if err := inb.Write(x); err != nil {
				t.Fatal(err)
			}
			if err := outb.Write(nan(c.Dim)); err != nil {
				t.Fatal(err)
			}
			if err := l.Step(s, out, in, pos); err != nil {
				t.Fatal(err)
			}
			got, err := outb.Download()
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.Step(x, pos)
			if err != nil {
				t.Fatal(err)
			}
			scale := 0.0
			for _, v := range want {
				scale = math.Max(scale, math.Abs(v))
			}
			for i, w := range want {
				e := math.Abs(float64(got[i])-w) / scale
				if !(e <= tolerance) {
					t.Fatalf("step %d: output %d is %v, the reference's %v (%.3g of the step's largest, %v)", pos, i, got[i], w, e, scale)
				}
				worst = math.Max(worst, e)
			}
		}
		t.Logf("%d steps: the largest difference from the reference, relative to a step's largest output: %.3g", steps, worst)
	})
}

func vector(t *testing.T, d *gpu.Device) tensor.Tensor {
	t.Helper()
	b, err := gpu.NewBuffer[float32](d, config.Dim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	v, err := tensor.Dense(b, config.Dim)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func nan(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.NaN())
	}
	return v
}
