package refuse

import "github.com/goxpu/xpu"

type Wide struct {
	A float32
	B float64
}

type Ok struct{ A, B float32 }

//xpu:kernel block=64
func Types(t xpu.Thread, y []float32, n uint32) {
	var m map[int32]float32 // ERROR "[xpu-no-map]"
	_ = m
	var e any // ERROR "[xpu-no-interface]"
	_ = e
	var s string // ERROR "[xpu-no-string]"
	_ = s
	var k = 3 // ERROR "[xpu-no-64bit] variable k"
	_ = k
	for /* ERROR "[xpu-no-64bit] variable i: type int is 64-bit or platform-sized; write for i := int32(0)" */ i := 0; i < 4; i++ {
	}
	var b complex64 // ERROR "[xpu-scalar-type]"
	_ = b
	var p *float32 // ERROR "[xpu-no-pointer]"
	_ = p
	var c chan int32 // ERROR "[xpu-no-channel]"
	_ = c
	y[0] = float32( /* ERROR "[xpu-no-64bit] conversion to float64" */ float64(n))
	z := /* ERROR "[xpu-no-64bit] len yields an int; convert it" */ len(y)
	_ = z
}

//xpu:kernel block=64
func Layout(t xpu.Thread, w []Wide, o []Ok) { // ERROR "[xpu-struct-layout] buffer w: field B of Wide has type float64"
	o[0].A = 1
	var q struct{ A float32 } // ERROR "[xpu-struct-layout] variable q: unnamed struct"
	_ = q
}
