package main

import "github.com/goxpu/xpu"

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen

// Saxpy computes y = a*x + y.
//
//xpu:kernel block=256
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}
