package refuse

import "github.com/goxpu/xpu"

type WideField struct {
	A uint32
	B int64
}

//xpu:kernel block=64
func WideBuffer(t xpu.Thread, y []uint64) { // ERROR "[xpu-wide-memory] buffer y: elements of type uint64: 64-bit values are private; store them as two uint32 words"
}

//xpu:kernel block=64
func WideStruct(t xpu.Thread, y []WideField) { // ERROR "[xpu-wide-memory] buffer y: field B of WideField a field of type int64"
}

//xpu:kernel block=64
func WideArrays(t xpu.Thread, y [][2]int64) { // ERROR "[xpu-wide-memory] buffer y: elements of type [2]int64"
}

//xpu:kernel block=64
func WideUniform(t xpu.Thread, y []uint32, b uint64) { // ERROR "[xpu-wide-memory] parameter b: a uniform of type uint64"
}

//xpu:kernel block=64
func WideShared(t xpu.Thread, y []uint32) {
	s := xpu.Shared[int64](t, 64) // ERROR "[xpu-wide-memory] shared array s: elements of type int64"
	y[0] = uint32(s[0])
}

//xpu:kernel block=64
func WideValues(t xpu.Thread, y []uint32) {
	state := uint64(t.GlobalX())*6364136223846793005 + 1442695040888963407
	var k int64 = -1 << 63
	y[0] = uint32(state>>59) + uint32(k>>62)
	var i = 3 // ERROR "[xpu-no-64bit] variable i"
	_ = i
}
