package gpuimpl

// This file gives the Go lowering the bit functions of math/bits that
// kernels call, with the uint32 counts the kernel IR gives them (Go's
// are int, which kernels convert).

import "math/bits"

// OnesCount32 is bits.OnesCount32.
func OnesCount32(x uint32) uint32 { return uint32(bits.OnesCount32(x)) }

// LeadingZeros32 is bits.LeadingZeros32.
func LeadingZeros32(x uint32) uint32 { return uint32(bits.LeadingZeros32(x)) }

// TrailingZeros32 is bits.TrailingZeros32.
func TrailingZeros32(x uint32) uint32 { return uint32(bits.TrailingZeros32(x)) }

// Len32 is bits.Len32.
func Len32(x uint32) uint32 { return uint32(bits.Len32(x)) }

// Reverse32 is bits.Reverse32.
func Reverse32(x uint32) uint32 { return bits.Reverse32(x) }

// ReverseBytes32 is bits.ReverseBytes32.
func ReverseBytes32(x uint32) uint32 { return bits.ReverseBytes32(x) }

// RotateLeft32 is bits.RotateLeft32 of a 32-bit count (taken modulo 32,
// as Go takes the int one).
func RotateLeft32[K int32 | uint32](x uint32, k K) uint32 { return bits.RotateLeft32(x, int(k)&31) }

// MulHi32 is the high word of bits.Mul32.
func MulHi32(x, y uint32) uint32 {
	hi, _ := bits.Mul32(x, y)
	return hi
}
