package refuse

import "github.com/goxpu/xpu"

func waveInFunc(t xpu.Thread, v float32) float32 {
	s := /* ERROR "[xpu-wave-placement] xpu.WaveSum in a device function" */ xpu.WaveSum(t, v)
	return s
}

//xpu:kernel block=64
func WaveRules(t xpu.Thread, y []float32, n uint32) {
	i := t.GlobalX()
	v := y[i]
	s := xpu.WaveSum(t, v) // uniform: fine
	if i < n {
		s = /* ERROR "[xpu-wave-nonuniform] xpu.WaveMax in non-uniform control flow" */ xpu.WaveMax(t, v)
	}
	if n > 4 {
		s = xpu.WaveMin(t, v) // uniform: fine
	}
	y[i] = /* ERROR "[xpu-wave-placement] xpu.WaveSum inside an expression" */ xpu.WaveSum(t, v) + s
	y[i] = waveInFunc(t, v)
}

// ERROR +4:7 "[xpu-wave-ballot] xpu.WaveBallot in a kernel that declares wave=64"
//
//xpu:kernel block=128 wave=64
func WideBallot(t xpu.Thread, y []uint32) {
	m := xpu.WaveBallot(t, y[t.GlobalX()] > 0)
	y[t.GlobalX()] = m
}
