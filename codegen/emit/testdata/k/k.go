// Package k is the package of the module the emit tests write
// (module.golden): TestFileBuilds builds it with that file, so it
// declares the struct and the functions the file names.
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

func Scale(t xpu.Thread, y []int32) { y[t.GlobalX()] *= 2 }

func Step(t xpu.Thread, s []Particle, groups int32) {
	s[t.GlobalX()].X += float32(groups)
}
