package corpus

// This file compares a buffer the reference wrote with the recording,
// word by word: integers bit for bit, floats within the kernel's hold.

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// maxDiffs bounds the differences a verdict lists per buffer; Differ
// counts them all.
const maxDiffs = 8

// Diff is one word of a buffer where the recording (Got: what the device
// wrote) and the reference's replay (Want) differ beyond the hold.
type Diff struct {
	Buffer  string       // the parameter's name
	Element int          // the element's index
	Leaf    string       // the word's place in a struct element (".Pos[1]"); "" for a scalar element
	Kind    reflect.Kind // Float32, Int32 or Uint32
	Got     uint32
	Want    uint32
	ULP     uint64 // the floats' distance; 0 for integers
}

func (d Diff) String() string {
	return fmt.Sprintf("%s[%d]%s: got %s, want %s%s", d.Buffer, d.Element, d.Leaf, word(d.Kind, d.Got), word(d.Kind, d.Want), d.ulp())
}

func (d Diff) ulp() string {
	if d.Kind != reflect.Float32 {
		return ""
	}
	if d.ULP == math.MaxUint64 {
		return " (NaN against a number)"
	}
	return fmt.Sprintf(" (%d ulp apart)", d.ULP)
}

// word spells a 32-bit word as a value of kind k, and its bits.
func word(k reflect.Kind, bits uint32) string {
	switch k {
	case reflect.Float32:
		return fmt.Sprintf("%g (%#08x)", math.Float32frombits(bits), bits)
	case reflect.Int32:
		return fmt.Sprintf("%d (%#08x)", int32(bits), bits)
	}
	return fmt.Sprintf("%d (%#08x)", bits, bits)
}

// leaf is one 32-bit word of a buffer element: its kind and its place.
type leaf struct {
	kind reflect.Kind
	name string
}

// leaves returns the words of an element of type t in memory order.
func leaves(t reflect.Type, name string) []leaf {
	switch t.Kind() {
	case reflect.Struct:
		var ls []leaf
		for i := range t.NumField() {
			f := t.Field(i)
			ls = append(ls, leaves(f.Type, name+"."+f.Name)...)
		}
		return ls
	case reflect.Array:
		var ls []leaf
		for i := range t.Len() {
			ls = append(ls, leaves(t.Elem(), name+"["+strconv.Itoa(i)+"]")...)
		}
		return ls
	}
	return []leaf{{kind: t.Kind(), name: name}}
}

// compare compares the slice ref, which the reference run left, with
// the recorded contents got of the buffer, noting in v the largest float
// distance and every word beyond bound ulp.
func (v *Verdict) compare(buffer string, ref reflect.Value, got []byte, bound uint64) {
	ls := leaves(ref.Type().Elem(), "")
	want := sliceBytes(ref)
	listed := 0
	for w := 0; 4*w+4 <= len(want) && 4*w+4 <= len(got); w++ {
		g, r := binary.LittleEndian.Uint32(got[4*w:]), binary.LittleEndian.Uint32(want[4*w:])
		if g == r {
			continue
		}
		l := ls[w%len(ls)]
		var d uint64
		if l.kind == reflect.Float32 {
			d = ULPDistance(math.Float32frombits(g), math.Float32frombits(r))
			if d <= bound {
				v.ULP = max(v.ULP, d)
				continue
			}
			v.Worst = max(v.Worst, d)
		}
		v.Differ++
		if listed < maxDiffs {
			listed++
			v.Diffs = append(v.Diffs, Diff{Buffer: buffer, Element: w / len(ls), Leaf: l.name, Kind: l.kind, Got: g, Want: r, ULP: d})
		}
	}
}

// ULPDistance returns how far apart a and b are in float32 values: the
// number of them between a and b, plus one; 0 when they are equal (+0
// and -0 are) or both NaN, MaxUint64 when one alone is NaN.
func ULPDistance(a, b float32) uint64 {
	an, bn := a != a, b != b
	switch {
	case an && bn:
		return 0
	case an || bn:
		return math.MaxUint64
	}
	x, y := ordered(a), ordered(b)
	if x > y {
		return uint64(x - y)
	}
	return uint64(y - x)
}

// ordered maps the bits of f to an integer that orders like f.
func ordered(f float32) int64 {
	b := int64(math.Float32bits(f))
	if b&(1<<31) != 0 {
		return -(b &^ (1 << 31))
	}
	return b
}
