package refuse

import "github.com/goxpu/xpu"

type C1 struct{ N int }

//xpu:kernel block=64
func NoThread( /* ERROR "[xpu-kernel-signature] the first parameter" */ y []float32) {
}

//xpu:kernel block=64
func Results(t xpu.Thread) /* ERROR "[xpu-kernel-signature] kernel Results has results" */ int32 {
	return 0
}

//xpu:kernel block=64
func Wide64(t xpu.Thread, n int) { // ERROR "[xpu-no-64bit] parameter n"
}

//xpu:kernel block=64
//xpu:instance A C1{N: 1}
func TwoComptime(t xpu.Thread, a C1, b C1) { // ERROR "[xpu-kernel-signature] kernel TwoComptime has a second comptime"
}

func two(x float32) /* ERROR "[xpu-func-signature]" */ (float32, float32) { return x, x }

func named(x float32) /* ERROR "[xpu-func-signature] device function named has a named result" */ (r float32) {
	r = x
	return
}

//xpu:kernel block=64
func UsesFuncs(t xpu.Thread, y []float32) {
	a, b := two(y[0])
	y[0] = a + b
	y[1] = named(y[1])
}
