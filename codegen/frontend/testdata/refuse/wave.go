package refuse

import "github.com/goxpu/xpu"

// warpSum is the device function of a CUDA reduction: its verb is fine
// wherever the call is in uniform control flow.
func warpSum(t xpu.Thread, v float32) float32 {
	for off := uint32(16); off > 0; off /= 2 {
		v += xpu.WaveShuffleDown(t, v, off)
	}
	return v
}

// waveIfPositive reaches its verb only where its argument says.
func waveIfPositive(t xpu.Thread, v float32, k uint32) float32 {
	if k > 0 {
		return xpu.WaveSum(t, v) // uniform where k is
	}
	return v
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
	y[i] = xpu.WaveSum(t, v) + s // inside an expression: fine
	y[i] += warpSum(t, v)        // uniform: fine
	if i < n {
		y[i] = /* ERROR "[xpu-wave-nonuniform] call of warpSum, which reaches xpu.WaveShuffleDown, in non-uniform control flow" */ warpSum(t, v)
	}
	if i < n && /* ERROR "[xpu-wave-nonuniform] xpu.WaveAny in non-uniform control flow" */ xpu.WaveAny(t, v > 0) {
		y[i] = 0
	}
	y[i] = /* ERROR "[xpu-wave-nonuniform] call of waveIfPositive, which reaches xpu.WaveSum, in non-uniform control flow" */ waveIfPositive(t, v, i)
	// A verb's value is never uniform: after the first test, only the
	// lanes still in the loop test its condition again.
	for /* ERROR "[xpu-wave-nonuniform] xpu.WaveAny in non-uniform control flow" */ xpu.WaveAny(t, v > 0) {
		v -= 1
	}
	for j := uint32(0); j < n && xpu.WaveMax(t, v) > 0; j++ { // ERROR "[xpu-wave-nonuniform] xpu.WaveMax in non-uniform control flow"
		v -= 1
	}
	y[i] = v
}

// ERROR +4:7 "[xpu-wave-ballot] xpu.WaveBallot in a kernel that declares wave=64"
//
//xpu:kernel block=128 wave=64
func WideBallot(t xpu.Thread, y []uint32) {
	m := xpu.WaveBallot(t, y[t.GlobalX()] > 0)
	y[t.GlobalX()] = m + ballotOf(t, m > 0)
}

// ballotOf is refused for the kernel that calls it, which declares wave=64.
func ballotOf(t xpu.Thread, p bool) uint32 {
	return /* ERROR "[xpu-wave-ballot] xpu.WaveBallot in a kernel that declares wave=64" */ xpu.WaveBallot(t, p)
}
