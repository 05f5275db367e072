package quant

import "encoding/binary"

// Words returns b as the little-endian 32-bit words a kernel reads: byte
// i of b is bits 8*(i%4) to 8*(i%4)+7 of word i/4, and the last word is
// padded with zero bytes.
func Words(b []byte) []uint32 {
	w := make([]uint32, (len(b)+3)/4)
	for i := range w {
		var q [4]byte
		copy(q[:], b[4*i:])
		w[i] = binary.LittleEndian.Uint32(q[:])
	}
	return w
}
