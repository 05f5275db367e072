package quant

import (
	"encoding/binary"
	"fmt"
	"github.com/goxpu/xpu/kernels/internal/f16"

	"github.com/goxpu/xpu/gpu"
)

// The sizes of the blocks in bytes, as ggml-common.h's static asserts
// state them: a float16 scale, then the quants, with no padding.
const (
	q8_0Bytes = 2 + blockValues   // 34
	q4_0Bytes = 2 + blockValues/2 // 18
)

// BlockQ8_0 is a block of Q8_0 (ggml's block_q8_0): value i is
// Qs[i]*D.
type BlockQ8_0 struct {
	D  uint16            // the scale, as float16 bits
	Qs [blockValues]int8 // the quants
}

// BlockQ4_0 is a block of Q4_0 (ggml's block_q4_0): byte j of Qs holds
// value j in its low nibble and value j+16 in its high nibble, each
// offset by 8, so value i is ((Qs[i]&0x0F)-8)*D for i < 16 and
// ((Qs[i-16]>>4)-8)*D for i >= 16.
type BlockQ4_0 struct {
	D  uint16                // the scale, as float16 bits
	Qs [blockValues / 2]byte // the packed quants
}

// AppendBinary appends the block's 34 bytes to b: D little-endian, then
// the quants.
func (k *BlockQ8_0) AppendBinary(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint16(b, k.D)
	for _, q := range k.Qs {
		b = append(b, byte(q))
	}
	return b, nil
}

// UnmarshalBinary sets the block from its 34 bytes.
func (k *BlockQ8_0) UnmarshalBinary(b []byte) error {
	if len(b) != q8_0Bytes {
		return fmt.Errorf("quant: a Q8_0 block is %d bytes, not %d: %w", q8_0Bytes, len(b), gpu.ErrSize)
	}
	k.D = binary.LittleEndian.Uint16(b)
	for i := range k.Qs {
		k.Qs[i] = int8(b[2+i])
	}
	return nil
}

// Values returns the block's 32 values.
func (k *BlockQ8_0) Values() [blockValues]float32 {
	var v [blockValues]float32
	d := f16.ToFloat32(k.D)
	for i, q := range k.Qs {
		v[i] = float32(q) * d
	}
	return v
}

// AppendBinary appends the block's 18 bytes to b: D little-endian, then
// the packed quants.
func (k *BlockQ4_0) AppendBinary(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint16(b, k.D)
	return append(b, k.Qs[:]...), nil
}

// UnmarshalBinary sets the block from its 18 bytes.
func (k *BlockQ4_0) UnmarshalBinary(b []byte) error {
	if len(b) != q4_0Bytes {
		return fmt.Errorf("quant: a Q4_0 block is %d bytes, not %d: %w", q4_0Bytes, len(b), gpu.ErrSize)
	}
	k.D = binary.LittleEndian.Uint16(b)
	copy(k.Qs[:], b[2:])
	return nil
}

// Values returns the block's 32 values.
func (k *BlockQ4_0) Values() [blockValues]float32 {
	var v [blockValues]float32
	d := f16.ToFloat32(k.D)
	for j, q := range k.Qs {
		v[j] = float32(int32(q&0x0F)-8) * d
		v[j+blockValues/2] = float32(int32(q>>4)-8) * d
	}
	return v
}
