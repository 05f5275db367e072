//go:build js

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"syscall/js"
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/tune"
	"gonum.org/v1/gonum/blas"
)

func main() {
	n := flag.Int("n", 256, "the size of the square product")
	reps := flag.Int("reps", 5, "the timed repetitions of each side, after one untimed")
	member := flag.String("member", "", "the SGEMM member to launch (a kernel's name); none: the tuner measures the family at the size")
	flag.Parse()
	r := &Result{N: *n}
	if err := run(r, *n, *reps, *member); err != nil {
		r.Error = err.Error()
	}
	x := js.Global().Get("xpu")
	if data, err := json.Marshal(r); err != nil {
		x.Set("error", err.Error())
	} else {
		x.Set("report", string(data))
	}
	x.Set("done", true)
}

// run times both sides on random n x n matrices of [0, 1), interleaved:
// one untimed call each (shaders compile), then reps rounds, each side
// first in every other round. Every call reads C back, so that each
// time is the whole product as a program waits for it.
func run(r *Result, n, reps int, member string) error {
	d, err := gpu.OpenBackend("webgpu")
	if err != nil {
		return err
	}
	defer d.Close()
	r.Device = d.Info().Name
	tf := js.Global().Get("tf")
	if tf.Type() != js.TypeObject {
		return errors.New("tfjs is not loaded: no globalThis.tf")
	}
	if ok, err := await(tf.Call("setBackend", "webgpu")); err != nil || !ok.Truthy() {
		return fmt.Errorf("tf.setBackend(\"webgpu\"): %v %v", ok, err)
	}
	if _, err := await(tf.Call("ready")); err != nil {
		return err
	}
	r.TFJS = tf.Get("version_core").String()

	rnd := rand.New(rand.NewPCG(uint64(n), 1))
	a, b := make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = rnd.Float32(), rnd.Float32()
	}
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
	C, err := gpu.NewBuffer[float32](d, n*n)
	if err != nil {
		return err
	}
	defer C.Release()
	ta, tb := tensor(tf, a, n), tensor(tf, b, n)
	defer ta.Call("dispose")
	defer tb.Call("dispose")

	// The tuner measures the family's members at the size, as a first
	// call of Sgemm does, unless told the member.
	tu := &tune.Tuner{}
	if member != "" {
		tu.Force = map[string]string{matmul.Family.Name: member}
	}
	c, err := tune.Choose(tu, d.Stream(), matmul.Family, matmul.Shape{M: n, N: n, K: n})
	if err != nil {
		return err
	}
	r.Member, r.Source = c.Chosen, c.Source.String()
	ours := make([]float32, n*n)
	sgemm := func() error {
		if err := matmul.Sgemm(tu, d.Stream(), blas.NoTrans, blas.NoTrans, n, n, n, 1, A, n, B, n, 0, C, n); err != nil {
			return err
		}
		return C.Read(ours)
	}
	var theirs js.Value
	matMul := func() error {
		t := tf.Call("matMul", ta, tb)
		defer t.Call("dispose")
		v, err := await(t.Call("data"))
		theirs = v
		return err
	}
	type side struct {
		run   func() error
		times *[]float64
	}
	for round := -1; round < reps; round++ {
		sides := [2]side{{sgemm, &r.Ours}, {matMul, &r.Theirs}}
		if round%2 != 0 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		for _, s := range sides {
			start := time.Now()
			if err := s.run(); err != nil {
				return err
			}
			if round >= 0 {
				*s.times = append(*s.times, time.Since(start).Seconds())
			}
		}
	}
	return compare(r, ours, floats(theirs), a, b, n)
}

// compare checks that both sides computed the product: the sums of n
// products of [0, 1) run in other orders, so each element is within 2n
// roundings of 2^-24 of itself (the terms cancel nothing), of the other
// side's and, at a few places, of the sum in float64.
func compare(r *Result, ours, theirs, a, b []float32, n int) error {
	if len(theirs) != len(ours) {
		return fmt.Errorf("tf.matMul gave %d values, want %d", len(theirs), len(ours))
	}
	bound := func(v float64) float64 { return 2 * float64(n) * 0x1p-24 * math.Abs(v) }
	for i, v := range ours {
		d := math.Abs(float64(v) - float64(theirs[i]))
		r.MaxDiff = max(r.MaxDiff, d/max(bound(float64(theirs[i])), 0x1p-126))
		if !(d <= bound(float64(theirs[i]))) {
			return fmt.Errorf("element [%d, %d] of C is %g, tf.matMul's %g: off by %g, over 2n*2^-24 of it", i/n, i%n, v, theirs[i], d)
		}
	}
	for k := range 16 {
		i, j := (k*7919)%n, (k*104729)%n
		var want float64
		for q := range n {
			want += float64(a[i*n+q]) * float64(b[q*n+j])
		}
		if v := float64(ours[i*n+j]); !(math.Abs(v-want) <= bound(want)) {
			return fmt.Errorf("element [%d, %d] of C is %g, the sum in float64 %g: over 2n*2^-24 of it", i, j, v, want)
		}
	}
	return nil
}

// tensor returns an n x n tf.Tensor holding v.
func tensor(tf js.Value, v []float32, n int) js.Value {
	arr := js.Global().Get("Float32Array").New(len(v))
	b := make([]byte, 4*len(v))
	for i, x := range v {
		u := math.Float32bits(x)
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
	}
	js.CopyBytesToJS(js.Global().Get("Uint8Array").New(arr.Get("buffer")), b)
	return tf.Call("tensor2d", arr, []any{n, n})
}

// floats copies a Float32Array into Go.
func floats(arr js.Value) []float32 {
	if arr.Type() != js.TypeObject {
		return nil
	}
	b := make([]byte, 4*arr.Length())
	js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(arr.Get("buffer"), arr.Get("byteOffset"), len(b)))
	v := make([]float32, arr.Length())
	for i := range v {
		v[i] = math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
	}
	return v
}

// await blocks until the promise p settles, and returns its value or its
// rejection. It must not run inside a js.FuncOf callback, whose event
// loop turn the settling needs.
func await(p js.Value) (js.Value, error) {
	done := make(chan js.Value, 1)
	failed := make(chan js.Value, 1)
	arg := func(args []js.Value) js.Value {
		if len(args) == 0 {
			return js.Undefined()
		}
		return args[0]
	}
	then := js.FuncOf(func(_ js.Value, args []js.Value) any { done <- arg(args); return nil })
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any { failed <- arg(args); return nil })
	defer catch.Release()
	p.Call("then", then, catch)
	select {
	case v := <-done:
		return v, nil
	case e := <-failed:
		return js.Undefined(), js.Error{Value: e}
	}
}
