// Command llama decodes tokens through a llama-style decoder layer
// (package models/llama) on every device present and prints tokens per
// second per device. It writes a layer of random weights to a GGUF file
// first (the attention's and the MLP's matrices in the format -format
// names, the norms in f32), opens that file on each device, decodes a
// sequence untimed (its first output checked against the plain-Go
// reference, the tuner choosing as the context grows), then times a
// second.
//
//	go run ./examples/llama                          # a TinyLlama-sized layer in Q4_0
//	go run ./examples/llama -format q8_0 -steps 64
//	go run ./examples/llama -dim 4096 -hidden 11008 -heads 32 -kvheads 32  # a 7B layer
//
// With -trace, the timed sequences of every device are traced (package
// gpu/trace) into one Chrome trace-event file, which Perfetto opens and
// `xpu trace` summarizes and draws:
//
//	go run ./examples/llama -backend webgpu -steps 4 -trace /tmp/llama.json
//	go run ./cmd/xpu trace -svg docs/trace.svg /tmp/llama.json
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/models/llama"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "llama:", err)
		os.Exit(1)
	}
}

func run() error {
	var c llama.Config
	flag.IntVar(&c.Dim, "dim", 2048, "the model's width")
	flag.IntVar(&c.Heads, "heads", 32, "query heads")
	flag.IntVar(&c.KVHeads, "kvheads", 4, "key and value heads")
	flag.IntVar(&c.Hidden, "hidden", 5632, "the MLP's width")
	steps := flag.Int("steps", 32, "tokens to decode")
	format := flag.String("format", "q4_0", "the matrices' format: f32, q8_0, q4_0 or q4_k")
	traceTo := flag.String("trace", "", "write a Chrome trace of the timed sequences to this file")
	only := flag.String("backend", "", "run on this backend alone (cpu, webgpu, ...)")
	flag.Parse()
	c.Ctx, c.Eps, c.Theta = *steps, 1e-5, 10000
	var f tensor.Format
	for _, g := range tensor.Formats() {
		if g.String() == *format {
			f = g
		}
	}
	if f == 0 {
		return fmt.Errorf("no format %q", *format)
	}
	dir, err := os.MkdirTemp("", "xpu-llama")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "layer.gguf")
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	err = llama.Write(file, c, llama.Random(c, rand.New(rand.NewPCG(1, 2))), func(string) tensor.Format { return f })
	if err := errors.Join(err, file.Close()); err != nil {
		return err
	}
	fmt.Printf("a layer of dim %d, %d heads (%d KV), MLP %d, matrices in %s; %d tokens a device\n", c.Dim, c.Heads, c.KVHeads, c.Hidden, f, *steps)
	_, host, err := llama.ReadHost(path)
	if err != nil {
		return err
	}
	var sink *trace.Chrome
	if *traceTo != "" {
		tf, err := os.Create(*traceTo)
		if err != nil {
			return err
		}
		defer tf.Close()
		sink = trace.NewChrome(tf)
	}
	for _, b := range gpu.Backends() {
		if *only != "" && string(b) != *only {
			continue
		}
		d, err := gpu.OpenBackend(b)
		if err != nil {
			fmt.Printf("%-7s unavailable: %v\n", b, err)
			continue
		}
		err = decode(d, path, c, host, *steps, sink)
		d.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", b, err)
		}
	}
	if sink != nil {
		return sink.Close()
	}
	return nil
}

// decode runs two sequences of steps tokens on d and prints the rate of
// the second, which sink, if not nil, traces.
func decode(d *gpu.Device, path string, c llama.Config, host llama.Host, steps int, sink *trace.Chrome) error {
	l, err := llama.Open(d, path)
	if err != nil {
		return err
	}
	defer l.Release()
	ref, err := llama.NewReference(c, host)
	if err != nil {
		return err
	}
	inb, err := gpu.NewBuffer[float32](d, c.Dim)
	if err != nil {
		return err
	}
	defer inb.Release()
	outb, err := gpu.NewBuffer[float32](d, c.Dim)
	if err != nil {
		return err
	}
	defer outb.Release()
	in, _ := tensor.Dense(inb, c.Dim)
	out, _ := tensor.Dense(outb, c.Dim)
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]float32, c.Dim)
	s := d.Stream()
	// Two sequences of steps tokens: the first compiles the kernels, lets
	// the tuner choose per bucket of context, and checks its first output
	// against the reference; the second is timed.
	var start time.Time
	for seq := range 2 {
		if seq == 1 {
			if err := s.Sync(); err != nil {
				return err
			}
			if sink != nil {
				d.SetTrace(sink)
				defer d.SetTrace(nil)
			}
			start = time.Now()
		}
		for pos := range steps {
			for i := range x {
				x[i] = 2*r.Float32() - 1
			}
			if err := inb.Write(x); err != nil {
				return err
			}
			if err := l.Step(s, out, in, pos); err != nil {
				return err
			}
			if seq == 0 && pos == 0 {
				if err := check(outb, ref, x); err != nil {
					return err
				}
			}
		}
	}
	if err := s.Sync(); err != nil {
		return err
	}
	el := time.Since(start)
	n := s.Counters()
	fmt.Printf("%-7s %-40q %6.1f tokens/s (%d steps in %v; launches: %d direct, %d replayed by %d graphs)\n",
		d.Backend(), d.Info().Name, float64(steps)/el.Seconds(), steps, el.Round(time.Millisecond), n.Direct, n.Replayed, n.Graphs)
	return nil
}

// check compares the layer's output in outb for input x at position 0
// with the reference's.
func check(outb *gpu.Buffer[float32], ref *llama.Reference, x []float32) error {
	got, err := outb.Download()
	if err != nil {
		return err
	}
	want, err := ref.Step(x, 0)
	if err != nil {
		return err
	}
	worst, scale := 0.0, 0.0
	for i, w := range want {
		worst = math.Max(worst, math.Abs(float64(got[i])-w))
		scale = math.Max(scale, math.Abs(w))
	}
	if !(worst <= 1e-5*scale) {
		return fmt.Errorf("the first step differs from the reference by %.3g of its largest output", worst/scale)
	}
	return nil
}
