// Package k is the package of the module the emit tests write
// (module.golden): TestFileBuilds builds it with that file, so it
// declares the structs and the functions the file names.
package k

import "github.com/goxpu/xpu"

// Particle is the struct the module's kernel Step reads.
type Particle struct {
	X    float32
	Hits uint32
}

// The module's kernels, as the generated file's handles name them.

func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

// ScaleParams is the comptime parameter of the template Scale.
type ScaleParams struct{ Factor int32 }

func Scale(t xpu.Thread, c ScaleParams, y []int32) { y[t.GlobalX()] *= c.Factor }

func Step(t xpu.Thread, s []Particle, groups int32) {
	s[t.GlobalX()].X += float32(groups)
}
