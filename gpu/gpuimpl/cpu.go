package gpuimpl

// This file re-exports the contract of the Go lowering: what a block
// function, an artifact's Entry for the CPU backend, calls.

import (
	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

type (
	// CPUFunc runs every work-item of one block of a kernel.
	CPUFunc = driver.CPUFunc
	// CPUBlock is one block of a launch as a CPU lowering sees it.
	CPUBlock = driver.CPUBlock
)

// CPUStopped is the panic with which a block function stops when its
// launch is to stop (CPUBlock.Poll's); the CPU backend recovers it.
var CPUStopped = driver.ErrStopped

// CPUView returns the bytes of a CPU buffer as a slice of T sharing its
// memory.
func CPUView[T any](b []byte) []T { return driver.CPUView[T](b) }

// CPUUniform returns the scalar of type T at byte offset off of a uniform
// block.
func CPUUniform[T any](u []byte, off int) T { return driver.CPUUniform[T](u, off) }

// CPUDotStrip is the strip dot product the Go lowering runs an inner
// product's work-item loop with (see cpu.DotStrip).
type CPUDotStrip = cpu.DotStrip

// CPUCopyRow copies the elements of a row of work-items lane-wide (see
// cpu.CopyRow).
func CPUCopyRow[T any](dst []T, d uint32, src []T, s uint32, lanes int) bool {
	return cpu.CopyRow(dst, d, src, s, lanes)
}

// WaveOp is a wave verb, the operand of CPUWave (see schema.WaveOp).
type WaveOp = schema.WaveOp

// The numeric wave verbs, which CPUWave runs.
const (
	WaveSum                = schema.WaveSum
	WaveMin                = schema.WaveMin
	WaveMax                = schema.WaveMax
	WavePrefixSum          = schema.WavePrefixSum
	WaveExclusivePrefixSum = schema.WaveExclusivePrefixSum
	WaveBroadcast          = schema.WaveBroadcast
	WaveShuffle            = schema.WaveShuffle
	WaveShuffleXor         = schema.WaveShuffleXor
	WaveShuffleUp          = schema.WaveShuffleUp
	WaveShuffleDown        = schema.WaveShuffleDown
)

// CPUWave runs a numeric wave verb over a block's lanes (see cpu.Wave).
func CPUWave[T xpu.Number](op WaveOp, x []T, lane []uint32, on []bool, width uint32, out []T) {
	cpu.Wave(op, x, lane, on, width, out)
}

// CPUWaveBallot runs WaveBallot over a block's lanes (see cpu.WaveBallot).
func CPUWaveBallot(x, on []bool, width uint32, out []uint32) { cpu.WaveBallot(x, on, width, out) }

// CPUWaveVote runs WaveAll (all) or WaveAny over a block's lanes (see
// cpu.WaveVote).
func CPUWaveVote(all bool, x, on []bool, width uint32, out []bool) {
	cpu.WaveVote(all, x, on, width, out)
}
