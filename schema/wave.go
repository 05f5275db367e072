package schema

// This file names the wave verbs: the IR's, and the operand that
// generated Go code hands the CPU backend's wave functions.

// WaveOp is a wave verb; see package xpu for their semantics.
type WaveOp int

// The wave verbs.
const (
	WaveSum WaveOp = iota
	WaveMin
	WaveMax
	WavePrefixSum
	WaveExclusivePrefixSum
	WaveBallot // a bool operand; the result is a uint32 mask
	WaveAny    // a bool operand and result
	WaveAll    // a bool operand and result
	WaveBroadcast
	WaveShuffle
	WaveShuffleXor
	WaveShuffleUp
	WaveShuffleDown
	numWaveOps
)

var waveNames = [numWaveOps]string{
	"WaveSum", "WaveMin", "WaveMax", "WavePrefixSum", "WaveExclusivePrefixSum",
	"WaveBallot", "WaveAny", "WaveAll", "WaveBroadcast", "WaveShuffle",
	"WaveShuffleXor", "WaveShuffleUp", "WaveShuffleDown",
}

// String is the verb's name in package xpu ("WaveSum").
func (o WaveOp) String() string {
	if o < 0 || o >= numWaveOps {
		return "WaveOp(?)"
	}
	return waveNames[o]
}

// WaveOpNamed returns the verb called name ("WaveSum"), if any.
func WaveOpNamed(name string) (WaveOp, bool) {
	for i, n := range waveNames {
		if n == name {
			return WaveOp(i), true
		}
	}
	return 0, false
}

// IsShuffle reports whether o reads another lane's value, chosen by a
// second operand: the lane, mask or delta.
func (o WaveOp) IsShuffle() bool { return o >= WaveBroadcast && o < numWaveOps }

// IsPredicate reports whether o takes a bool.
func (o WaveOp) IsPredicate() bool { return o == WaveBallot || o == WaveAny || o == WaveAll }
