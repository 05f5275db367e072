// Package names declares, beside its kernels, the names the generated
// file would take by default: its file must pick others and build.
package names

import kx "github.com/goxpu/xpu"

// The default names of the generated file's own declarations and
// imports, taken.
// (zz.go takes fooWGSL, in a file that sorts after the generated one.)
var (
	gpu     = 1
	xpu     = 2
	fooCPU  = 4
	gpuimpl = 7
)

const wavyWGSLEmulated = 5

// close shadows a predeclared name the generated file does not use.
func close() int { return gpu + xpu + gpuimpl + fooWGSL + fooCPU + wavyWGSLEmulated }

// Pair is a buffer element.
type Pair struct{ X, Y uint32 }

// Foo and foo differ by case only.
//
//xpu:kernel block=64
func Foo(t kx.Thread, out []Pair) {
	out[t.GlobalX()] = Pair{X: t.GlobalX(), Y: 1}
}

//xpu:kernel block=64
func foo(t kx.Thread, out []uint32) {
	out[t.GlobalX()] = 2
}

// Bar's parameters take the names of its handle and of the launcher's
// own parameters.
//
//xpu:kernel block=64
func Bar(t kx.Thread, BarKernel []uint32, s, groups uint32) {
	BarKernel[t.GlobalX()] = s + groups
}

// Wavy has wave variants.
//
//xpu:kernel block=64
func Wavy(t kx.Thread, out []uint32) {
	s := kx.WaveSum(t, t.LocalX())
	out[t.GlobalX()] = s
}

// Qux's parameters are named like the packages the generated file
// imports.
//
//xpu:kernel block=64
func Qux(t kx.Thread, gpu []uint32, xpu uint32) {
	gpu[t.GlobalX()] = xpu
}
