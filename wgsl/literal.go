package wgsl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LitText returns the WGSL spelling of the literal l. Values that have no
// literal spelling come back as a bitcast expression, which is why the
// printer treats a literal whose text starts with '-' or "bitcast" with the
// care it gives compound expressions.
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
		return f32Text(l.Bits), nil
	}
	return "", fmt.Errorf("wgsl: literal of unknown kind %d", l.Kind)
}

// f32Text spells the float32 with bits b: the shortest decimal that reads
// back as the same float32, with a '.' or an exponent and the f suffix.
// NaNs, infinities and negative zero have no literal and become a bitcast
// of their exact bits.
func f32Text(b uint32) string {
	f := math.Float32frombits(b)
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) || b == 0x80000000 {
		return fmt.Sprintf("bitcast<f32>(0x%08xu)", b)
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	mant, exp, hasExp := strings.Cut(s, "e")
	if hasExp {
		// Go writes e+06 or e-07; WGSL reads e6 and e-7 as well, but the
		// short form is easier on the eye.
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
		return mant + "e" + sign + exp + "f"
	}
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	return mant + "f"
}
