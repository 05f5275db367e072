package usesgen

import (
	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// Fill writes v everywhere.
//
//xpu:kernel block=64
func Fill(t xpu.Thread, y []uint32, v uint32) {
	y[t.GlobalX()] = v
}

// fill uses the launcher that the generated file will declare.
func fill(s *gpu.Stream, y *gpu.Buffer[uint32], v uint32) error {
	return LaunchFill(s, xpu.Dim3{X: uint32(y.Len()) / FillKernel.Block().X}, y, v)
}
