package quant

import (
	"encoding/binary"
	"fmt"
	"github.com/goxpu/xpu/kernels/internal/f16"
	"math"

	"github.com/goxpu/xpu/gpu"
)

// The shape of a Q4_K super-block (ggml's QK_K and K_SCALE_SIZE).
const (
	q4KValues = 256
	q4KScales = 12
	q4KBytes  = 4 + q4KScales + q4KValues/2 // 144
)

// BlockQ4_K is a super-block of Q4_K (ggml's block_q4_K): 256 values in 8
// sub-blocks of 32, each with a 6-bit scale and a 6-bit min packed into
// Scales, both multiplied by the super-block's float16 D and Dmin. Value
// l of sub-block j is D*sc(j)*q - Dmin*m(j), q its 4-bit quant: Qs[32*p+l]
// holds sub-block 2p's quant l in its low nibble and sub-block 2p+1's in
// its high nibble.
type BlockQ4_K struct {
	D, Dmin uint16              // the super-block's scales, as float16 bits
	Scales  [q4KScales]byte     // the sub-blocks' 6-bit scales and mins, packed (see ScaleMin)
	Qs      [q4KValues / 2]byte // the quants, two per byte
}

// ScaleMin returns sub-block j's 6-bit scale and min (ggml's
// get_scale_min_k4): sub-blocks 0 to 3 keep theirs in the low 6 bits of
// Scales[j] and Scales[j+4]; sub-blocks 4 to 7 keep their low 4 bits in
// the nibbles of Scales[j+4] and their high 2 bits in the top bits of
// Scales[j-4] (scale) and Scales[j] (min).
func (k *BlockQ4_K) ScaleMin(j int) (sc, m uint8) {
	q := &k.Scales
	if j < 4 {
		return q[j] & 63, q[j+4] & 63
	}
	return q[j+4]&0xF | (q[j-4]>>6)<<4, q[j+4]>>4 | (q[j]>>6)<<4
}

// AppendBinary appends the block's 144 bytes to b: D and Dmin
// little-endian, the scales, the quants.
func (k *BlockQ4_K) AppendBinary(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint16(b, k.D)
	b = binary.LittleEndian.AppendUint16(b, k.Dmin)
	b = append(b, k.Scales[:]...)
	return append(b, k.Qs[:]...), nil
}

// UnmarshalBinary sets the block from its 144 bytes.
func (k *BlockQ4_K) UnmarshalBinary(b []byte) error {
	if len(b) != q4KBytes {
		return fmt.Errorf("quant: a Q4_K block is %d bytes, not %d: %w", q4KBytes, len(b), gpu.ErrSize)
	}
	k.D = binary.LittleEndian.Uint16(b)
	k.Dmin = binary.LittleEndian.Uint16(b[2:])
	copy(k.Scales[:], b[4:])
	copy(k.Qs[:], b[4+q4KScales:])
	return nil
}

// Values returns the block's 256 values as dequantize_row_q4_K computes
// them: (d*sc)*q - dmin*m in float32. The products are exact (11
// significant bits of d, 6 of sc, 4 of q), so only the subtraction
// rounds, and a build that fuses the multiply and subtract gives the
// same bits.
func (k *BlockQ4_K) Values() [q4KValues]float32 {
	var v [q4KValues]float32
	d, dmin := f16.ToFloat32(k.D), f16.ToFloat32(k.Dmin)
	for p := range 4 {
		sc0, m0 := k.ScaleMin(2 * p)
		sc1, m1 := k.ScaleMin(2*p + 1)
		d0, mm0 := d*float32(sc0), dmin*float32(m0)
		d1, mm1 := d*float32(sc1), dmin*float32(m1)
		for l := range 32 {
			q := k.Qs[32*p+l]
			v[64*p+l] = float32(d0*float32(q&0xF)) - mm0
			v[64*p+32+l] = float32(d1*float32(q>>4)) - mm1
		}
	}
	return v
}

// nearestInt is ggml's nearest_int: fval rounded to the nearest integer,
// ties to even, by adding 1.5*2^23 and reading the low mantissa bits
// (meant for |fval| < 2^22; other inputs give what the bits give, as in
// C).
func nearestInt(fval float32) int32 {
	val := fval + 12582912
	return int32(math.Float32bits(val)&0x007fffff) - 0x00400000
}

// quantizeQ4_K is quantize_row_q4_K_ref on one super-block: each
// sub-block's scale and min come from make_qkx2_quants (a search over 21
// candidate scales for the least weighted squared error), the scales and
// mins are quantized to 6 bits against the largest of each, and the
// quants are recomputed against the float16 scales the block stores.
func quantizeQ4_K(x []float32) BlockQ4_K {
	var (
		L              [q4KValues]uint8
		weights        [32]float32
		scales, mins   [8]float32
		maxScale, maxM float32
	)
	for j := range 8 {
		xs := x[32*j : 32*j+32]
		var sumX2 float32
		for _, v := range xs {
			sumX2 += float32(v * v)
		}
		avX := float32(math.Sqrt(float64(sumX2 / 32)))
		for l, v := range xs {
			weights[l] = avX + float32(math.Abs(float64(v)))
		}
		scales[j], mins[j] = makeQKX2Quants(xs, weights[:], L[32*j:32*j+32])
		maxScale = max32(maxScale, scales[j])
		maxM = max32(maxM, mins[j])
	}
	var invScale, invMin float32
	if maxScale > 0 {
		invScale = 63 / maxScale
	}
	if maxM > 0 {
		invMin = 63 / maxM
	}
	var k BlockQ4_K
	for j := range 8 {
		ls := min(63, uint8(nearestInt(float32(invScale*scales[j]))))
		lm := min(63, uint8(nearestInt(float32(invMin*mins[j]))))
		if j < 4 {
			k.Scales[j] = ls
			k.Scales[j+4] = lm
		} else {
			k.Scales[j+4] = ls&0xF | (lm&0xF)<<4
			k.Scales[j-4] |= (ls >> 4) << 6
			k.Scales[j] |= (lm >> 4) << 6
		}
	}
	k.D = f16.FromFloat32(maxScale / 63)
	k.Dmin = f16.FromFloat32(maxM / 63)
	for j := range 8 {
		sc, m := k.ScaleMin(j)
		d := f16.ToFloat32(k.D) * float32(sc)
		if d == 0 {
			continue
		}
		dm := f16.ToFloat32(k.Dmin) * float32(m)
		for i := range 32 {
			l := nearestInt((x[32*j+i] + dm) / d)
			L[32*j+i] = uint8(max(0, min(15, l)))
		}
	}
	for p := range 4 {
		for l := range 32 {
			k.Qs[32*p+l] = L[64*p+l] | L[64*p+32+l]<<4
		}
	}
	return k
}

// max32 is the update `if v > m { m = v }` of the reference quantizer.
func max32(m, v float32) float32 {
	if v > m {
		return v
	}
	return m
}

// makeQKX2Quants is ggml's make_qkx2_quants for 32 values, nmax 15,
// rmin -1, rdelta 0.1, 20 steps and squared errors, as quantize_row_q4_K_ref
// calls it: it sets the quants L of x and returns the scale and the min
// (negated, so not below 0) of the affine fit x ~ scale*L - min. Every
// float32 operation is rounded as the C source reads.
func makeQKX2Quants(x, weights []float32, L []uint8) (scale, theMin float32) {
	const nmax, rmin, rdelta, nstep = 15, float32(-1), float32(0.1), 20
	n := len(x)
	lo, hi := x[0], x[0]
	sumW := weights[0]
	sumX := float32(sumW * x[0])
	for i := 1; i < n; i++ {
		if x[i] < lo {
			lo = x[i]
		}
		if x[i] > hi {
			hi = x[i]
		}
		w := weights[i]
		sumW += w
		sumX += float32(w * x[i])
	}
	if lo > 0 {
		lo = 0
	}
	if hi == lo {
		for i := range L {
			L[i] = 0
		}
		return 0, -lo
	}
	iscale := nmax / (hi - lo)
	scale = 1 / iscale
	var bestError float32
	for i := range n {
		l := nearestInt(float32(iscale * (x[i] - lo)))
		L[i] = uint8(max(0, min(nmax, l)))
		diff := float32(float32(scale*float32(L[i]))+lo) - x[i]
		diff = float32(diff * diff)
		bestError += float32(weights[i] * diff)
	}
	var laux [32]uint8
	for is := range nstep + 1 {
		iscale = (float32(rmin+float32(rdelta*float32(is))) + nmax) / (hi - lo)
		var sumL, sumL2, sumXL float32
		for i := range n {
			l := nearestInt(float32(iscale * (x[i] - lo)))
			l = max(0, min(nmax, l))
			laux[i] = uint8(l)
			w := weights[i]
			fl := float32(l)
			sumL += float32(w * fl)
			sumL2 += float32(float32(w*fl) * fl)
			sumXL += float32(float32(w*fl) * x[i])
		}
		D := float32(sumW*sumL2) - float32(sumL*sumL)
		if D > 0 {
			thisScale := (float32(sumW*sumXL) - float32(sumX*sumL)) / D
			thisMin := (float32(sumL2*sumX) - float32(sumL*sumXL)) / D
			if thisMin > 0 {
				thisMin = 0
				thisScale = sumXL / sumL2
			}
			var curError float32
			for i := range n {
				diff := float32(float32(thisScale*float32(laux[i]))+thisMin) - x[i]
				diff = float32(diff * diff)
				curError += float32(weights[i] * diff)
			}
			if curError < bestError {
				copy(L, laux[:n])
				bestError = curError
				scale = thisScale
				lo = thisMin
			}
		}
	}
	return scale, -lo
}
