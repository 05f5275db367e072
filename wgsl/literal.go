package wgsl

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// LitText returns the WGSL spelling of the literal l. Values that have no
// literal spelling come back as a bitcast expression, which is why the
// printer treats a literal whose text starts with '-' or "bitcast" with the
// care it gives compound expressions. A non-finite f32 is an error: see
// [F32Lit].
func LitText(l *Lit) (string, error) {
	switch l.Kind {
	case Bool:
		switch l.Bits {
		case 0:
			return "false", nil
		case 1:
			return "true", nil
		}
		return "", fmt.Errorf("wgsl: bool literal with bits %#x", l.Bits)
	case I32:
		if l.Bits == 0x80000000 {
			// -2147483648i does not parse: 2147483648i is out of range.
			return "bitcast<i32>(0x80000000u)", nil
		}
		return strconv.FormatInt(int64(int32(l.Bits)), 10) + "i", nil
	case U32:
		return strconv.FormatUint(uint64(l.Bits), 10) + "u", nil
	case F32:
		if !F32Finite(l.Bits) {
			return "", fmt.Errorf("wgsl: f32 literal %#08x is not finite: WGSL has no literal for it, and Tint refuses every const-expression whose value is not finite", l.Bits)
		}
		return f32Text(l.Bits), nil
	}
	return "", fmt.Errorf("wgsl: literal of unknown kind %d", l.Kind)
}

// F32Finite reports whether the float32 with bits b is finite: neither
// an infinity nor a NaN.
func F32Finite(b uint32) bool { return b&0x7f800000 != 0x7f800000 }

// f32Text spells the finite float32 with bits b exactly, so that every
// WGSL compiler reads back the same bits however it rounds: the shortest
// decimal that reads back as b when its value is exactly b's (1.0f, 0.5f,
// 1e6f), else the hexadecimal float (0x1.99999ap-4f for 0.1), which is
// exact by construction. A decimal that merely rounds to b is not enough:
// Tint reads 3.4028235e38f (the shortest spelling of MaxFloat32, above it
// in value) as out of range, and a parser that rounds through float64
// may round a near-halfway decimal twice. Negative zero has no literal
// (-0.0f is the negation of 0.0f) and becomes a bitcast of its bits.
func f32Text(b uint32) string {
	if b == 0x80000000 {
		return "bitcast<f32>(0x80000000u)"
	}
	f := math.Float32frombits(b)
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if r, ok := new(big.Rat).SetString(s); !ok || r.Cmp(new(big.Rat).SetFloat64(float64(f))) != 0 {
		// Go writes 0x1.99999ap-04; the exponent is decimal either way.
		mant, exp, _ := strings.Cut(strconv.FormatFloat(float64(f), 'x', -1, 32), "p")
		return mant + "p" + shortExp(exp) + "f"
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	if hasExp {
		return mant + "e" + shortExp(exp) + "f"
	}
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	return mant + "f"
}

// shortExp drops the '+' and the leading zeros of an exponent Go wrote
// (+06, -07, +00): WGSL reads both forms, the short one is easier on the
// eye.
func shortExp(exp string) string {
	sign := ""
	switch exp[0] {
	case '-':
		sign = "-"
		exp = exp[1:]
	case '+':
		exp = exp[1:]
	}
	exp = strings.TrimLeft(exp, "0")
	if exp == "" {
		exp = "0"
	}
	return sign + exp
}
