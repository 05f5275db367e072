package refuse

import "github.com/goxpu/xpu"

type NarrowField struct {
	A uint32
	B uint8
}

type NarrowRow struct{ A [4]int16 }

//xpu:kernel block=64
func NarrowBuffer(t xpu.Thread, y []NarrowField) { // ERROR "[xpu-narrow-place] buffer y: field B of NarrowField a field of type uint8"
}

//xpu:kernel block=64
func NarrowArrayField(t xpu.Thread, y []NarrowRow) { // ERROR "[xpu-narrow-place] buffer y: field A of NarrowRow a field of type [4]int16"
}

//xpu:kernel block=64
func NarrowArrays(t xpu.Thread, y [][4]uint8) { // ERROR "[xpu-narrow-place] buffer y: elements of type [4]uint8"
}

//xpu:kernel block=64
func NarrowUniform(t xpu.Thread, y []uint8, b int8) { // ERROR "[xpu-narrow-place] parameter b: a uniform of type int8"
}

//xpu:kernel block=64
func NarrowShared(t xpu.Thread, y []uint16) {
	s := xpu.Shared[uint16](t, 64) // ERROR "[xpu-narrow-place] shared array s: elements of type uint16"
	y[0] = s[0]
}

//xpu:kernel block=64
func NarrowConst(t xpu.Thread, y []uint8, z []int8) {
	y[0] = 255
	z[0] = -128
	var b int8 = 127
	z[1] = b + 1
}
