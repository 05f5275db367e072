package refuse

import "github.com/goxpu/xpu"

type Inner struct{ A float32 }

type Nested struct {
	In [2]Inner
}

type Flags struct {
	On [4]bool
}

type Huge struct {
	M [70000]float32
}

//xpu:kernel block=64
func ArraySizes(t xpu.Thread, y []float32) {
	big := xpu.Shared[[64]float32](t, 2048) // ERROR "[xpu-array-size] shared array big holds 131072 scalars, more than 65536"
	_ = big
	var a [300][300]float32 // ERROR "[xpu-array-size] variable a: array type [300][300]float32 holds 90000 scalars, more than 65536"
	_ = a
	var z [0]float32 // ERROR "[xpu-array-size] variable z: array length 0 is outside 1..65536"
	_ = z
	var ok [4][4][4]float32 // three deep, 64 scalars: fine
	ok[1][2][3] = y[0]
	y[1] = ok[1][2][3]
}

//xpu:kernel block=64
func ArrayElems(t xpu.Thread,
	/* ERROR "[xpu-struct-layout] buffer n: field In of Nested has type [2]Inner, not a 32-bit scalar or an array of them" */ n []Nested,
	/* ERROR "[xpu-struct-layout] buffer f: field On of Flags has type [4]bool, not a 32-bit scalar or an array of them" */ f []Flags,
	/* ERROR "[xpu-kernel-signature] buffer b: buffer elements are int32, uint32, float32, structs of those, or arrays of them" */ b [][2]bool,
	/* ERROR "[xpu-array-size] buffer h: field M of Huge has type [70000]float32: array length 70000 is outside 1..65536" */ h []Huge) {
	s := xpu.Shared[[4]bool](t, 8) // ERROR "[xpu-unsupported] shared array s: shared elements are int32, uint32, float32, structs of those, or arrays of them"
	_ = s
}
