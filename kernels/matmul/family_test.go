package matmul_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/kernels/matmul/matmultest"
	"github.com/goxpu/xpu/tune"
)

// TestFamily checks that the family is Tiled's members, then TiledWave's and TiledVec's,
// in instance order under Tiled's name, with a shape of every kind it claims.
func TestFamily(t *testing.T) {
	f := matmul.Family
	if f.Name != matmul.TiledTemplate.Name() || !slices.Equal(f.Members, slices.Concat(matmul.TiledTemplate.Members(), matmul.TiledWaveTemplate.Members(), matmul.TiledVecTemplate.Members())) || len(f.Members) != len(matmultest.Members) {
		t.Fatalf("family %s of %d members; template %s", f.Name, len(f.Members), matmul.TiledTemplate.Name())
	}
	var square, other, odd bool
	for _, p := range f.Shapes {
		square = square || p.M == p.N && p.N == p.K
		other = other || p.M != p.N
		odd = odd || p.M%64 != 0 || p.N%64 != 0 || p.K%64 != 0
		if min(p.M, p.N, p.K) < 64 || max(p.M, p.N, p.K) > 2048 {
			t.Errorf("shape %v outside 64..2048", p)
		}
	}
	if len(f.Shapes) < 12 || !square || !other || !odd {
		t.Errorf("%d shapes; square %t, non-square %t, non-multiple %t", len(f.Shapes), square, other, odd)
	}
	if got := f.Key(matmul.Shape{M: 1000, N: 65, K: 64}); got != "M=1024,N=128,K=64" {
		t.Errorf("key %s", got)
	}
}

// TestMultiply runs Multiply on every device with a tuner that measures:
// the member it chooses computes the product a host loop does, and the
// choice is remembered for the bucket.
func TestMultiply(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 7))
		tu := &tune.Tuner{}
		for _, p := range []matmul.Shape{{M: 67, N: 45, K: 33}, {M: 70, N: 40, K: 60}} {
			a, b := gputest.Floats(r, p.M*p.K, 0, 1), gputest.Floats(r, p.K*p.N, 0, 1)
			A, B := upload(t, d, a), upload(t, d, b)
			poison := make([]float32, p.M*p.N)
			for i := range poison {
				poison[i] = float32(math.NaN())
			}
			C := upload(t, d, poison)
			c, err := matmul.Multiply(tu, d.Stream(), C, A, B, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := C.Download()
			if err != nil {
				t.Fatal(err)
			}
			tol := matmultest.Tolerance(uint32(p.K))
			for i := range p.M {
				for j := range p.N {
					var want float32
					for q := range p.K {
						want += a[i*p.K+q] * b[q*p.N+j]
					}
					if g := got[i*p.N+j]; !(math.Abs(float64(g-want)) <= tol.Rel*float64(want)+float64(math.Nextafter32(want, 2)-want)) {
						t.Fatalf("%v with %s: C[%d,%d] = %g, want %g (%s)", p, tune.Short(c.Chosen), i, j, g, want, tol.Name)
					}
				}
			}
			t.Logf("%v: %s", p, c)
		}
		// Both shapes share the bucket M=128,N=64,K=64: the second is remembered.
		c, err := tune.Choose(tu, d.Stream(), matmul.Family, matmul.Shape{M: 100, N: 50, K: 50})
		if err != nil || c.Source != tune.Remembered {
			t.Errorf("the bucket again: %v, %v", c, err)
		}
	})
}

// TestMultiplyRefuses checks Multiply's refusals: a buffer shorter than
// its matrix, a shape of no product.
func TestMultiplyRefuses(t *testing.T) {
	d, err := gpu.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	A, B, C := upload(t, d, make([]float32, 12)), upload(t, d, make([]float32, 12)), upload(t, d, make([]float32, 8))
	pinned := &tune.Tuner{Pinned: true}
	if _, err := matmul.Multiply(pinned, d.Stream(), C, A, B, matmul.Shape{M: 3, N: 3, K: 4}); !errors.Is(err, gpu.ErrBufferLen) {
		t.Errorf("C of 8 elements for 3x3: %v", err)
	}
	if _, err := matmul.Multiply(pinned, d.Stream(), C, A, nil, matmul.Shape{M: 2, N: 2, K: 2}); !errors.Is(err, gpu.ErrBufferLen) {
		t.Errorf("a nil B: %v", err)
	}
	if _, err := matmul.Multiply(pinned, d.Stream(), C, A, B, matmul.Shape{M: 0, N: 2, K: 2}); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("M of 0: %v", err)
	}
	c, err := matmul.Multiply(pinned, d.Stream(), C, A, B, matmul.Shape{M: 2, N: 4, K: 3})
	if err != nil || c.Source != tune.Pinned || c.Member != matmul.Tile8x8Kernel {
		t.Errorf("pinned: %v, %v", c, err)
	}
}

func upload(t *testing.T, d *gpu.Device, v []float32) *gpu.Buffer[float32] {
	t.Helper()
	b, err := gpu.Upload(d, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}
