package refuse

import (
	"math"

	"github.com/goxpu/xpu"
)

type Pt struct{ X, Y float32 }

func fact(n uint32) uint32 {
	if n == 0 {
		return 1
	}
	return n * /* ERROR "[xpu-no-recursion] call of fact recurses" */ fact(n-1)
}

func ping(n uint32) uint32 {
	if n == 0 {
		return 0
	}
	return pong(n - 1)
}

func pong(n uint32) uint32 { return /* ERROR "[xpu-no-recursion] call of ping recurses" */ ping(n) }

func first(y []float32) float32 { return y[0] }

//xpu:kernel block=64
func Calls(t xpu.Thread, y []float32, x []float32, n uint32) {
	y[0] = float32( /* ERROR "[xpu-import] math.Sqrt has no device form; call xpu.Sqrt" */ math.Sqrt(4))
	y[1] = math.Pi // constants of any package are fine
	a := /* ERROR "[xpu-no-alloc] call of make" */ make([]float32, 4)
	_ = a
	b := /* ERROR "[xpu-no-alloc] slice literal" */ []float32{1, 2}
	_ = b
	y[2] = float32(fact(n))
	y[3] = float32(ping(n))
	w := y /* ERROR "[xpu-no-slicing]" */ [1:]
	_ = w
	v := /* ERROR "[xpu-buffer-var]" */ x
	_ = v
	/* ERROR "[xpu-buffer-var] assignment to y" */ y = x
	for range /* ERROR "[xpu-range] range over []float32" */ y {
	}
	_ = /* ERROR "[xpu-import]" */ xpu.GroupsFor(n, 2)
	y[4] = first(y /* ERROR "[xpu-no-slicing]" */ [1:])
	p := &y[0] // ERROR "[xpu-no-pointer] address-of"
	_ = p
	q := Pt{X: 1}
	y[5] = q.X
}
