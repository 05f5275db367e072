// Command tune multiplies matrices of three shapes with package
// kernels/matmul on the best device present, through a tuner whose
// choices go to a store, and checks each product against a host loop.
// It logs how each member was chosen: a first run measures (and stores
// what it measured steadily), a second run reads the store and times
// nothing.
//
//	go run ./examples/tune                     # the store in the user cache folder
//	XPU_TUNE_STORE=/tmp/store go run ./examples/tune
//	go run ./cmd/xpu tune -show                # what the store holds
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/tune"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
		os.Exit(1)
	}
}

func run() error {
	d, err := gpu.Open()
	if err != nil {
		return err
	}
	defer d.Close()
	st, err := tune.DefaultStore()
	if err != nil {
		return err
	}
	tu := &tune.Tuner{Store: st, Log: func(c *tune.Choice) {
		fmt.Println("  choice:", c)
		for _, n := range c.Notes {
			fmt.Println("  note:", n)
		}
	}}
	where := "off"
	if st != nil {
		where = st.Dir()
	}
	fmt.Printf("device: %s %q\nstore: %s\n", d.Backend(), d.Info().Name, where)
	for _, p := range []matmul.Shape{{M: 256, N: 256, K: 256}, {M: 300, N: 200, K: 500}, {M: 64, N: 1024, K: 128}} {
		if err := multiply(d, tu, p); err != nil {
			return err
		}
	}
	return nil
}

// multiply computes one product on d and checks it against a host loop.
func multiply(d *gpu.Device, tu *tune.Tuner, p matmul.Shape) error {
	a, b := randoms(p.M*p.K), randoms(p.K*p.N)
	A, err := gpu.Upload(d, a)
	if err != nil {
		return err
	}
	defer A.Release()
	B, err := gpu.Upload(d, b)
	if err != nil {
		return err
	}
	defer B.Release()
	C, err := gpu.NewBuffer[float32](d, p.M*p.N)
	if err != nil {
		return err
	}
	defer C.Release()
	fmt.Printf("%v:\n", p)
	c, err := matmul.Multiply(tu, d.Stream(), C, A, B, p)
	if err != nil {
		return err
	}
	got, err := C.Download()
	if err != nil {
		return err
	}
	// Sums of K positive products, each of which a device may fuse:
	// within K units of 2^-23 of the result, relative.
	bound := float64(p.K) * 0x1p-23
	for i := range p.M {
		for j := range p.N {
			var want float32
			for q := range p.K {
				want += a[i*p.K+q] * b[q*p.N+j]
			}
			if diff := math.Abs(float64(got[i*p.N+j] - want)); diff > bound*float64(want)+1e-7 {
				return fmt.Errorf("%v with %s: C[%d,%d] = %g, a host loop says %g", p, tune.Short(c.Chosen), i, j, got[i*p.N+j], want)
			}
		}
	}
	fmt.Printf("  %s: verified against a host loop\n", tune.Short(c.Chosen))
	return nil
}

func randoms(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = rand.Float32()
	}
	return v
}
