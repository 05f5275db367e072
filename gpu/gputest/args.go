package gputest

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// Arg is one argument of a kernel launch: a buffer or a scalar. [Run]
// gives the reference runner and the device each their own copy, and
// compares every buffer after both runs.
type Arg interface {
	// reference returns the argument for xpu.Run: a fresh copy of a
	// buffer's initial contents, or the scalar.
	reference() any
	// device returns the argument for the launcher: a new device buffer
	// holding the initial contents followed by a poisoned guard band, or
	// the scalar.
	device(d *gpu.Device) (any, error)
	// compare reads the device buffer back and compares it with the
	// reference's final contents and the guard band with its poison.
	compare(ref, dev any, tol Tolerance) []Mismatch
	// release frees a device buffer.
	release(dev any)
}

// guardLen is the number of poisoned elements after each device buffer.
const guardLen = 16

// BufferArg is a buffer argument.
type BufferArg[T any] struct {
	init    []T
	guarded bool
}

// Buffer returns a buffer argument that starts out holding data.
func Buffer[T any](data []T) *BufferArg[T] {
	return &BufferArg[T]{init: data, guarded: true}
}

// Poisoned returns a buffer argument of n elements that starts out
// poisoned: NaN in float32 leaves, 0xDEADBEEF in integer ones. Use it for
// outputs, so that an element a run fails to write is caught.
func Poisoned[T any](n int) *BufferArg[T] {
	s := make([]T, n)
	if ks, err := leaves[T](); err == nil {
		poison(s, ks)
	}
	return &BufferArg[T]{init: s, guarded: true}
}

// Unguarded drops the guard band of the device buffer: for kernels whose
// result depends on the buffer's length.
func (b *BufferArg[T]) Unguarded() *BufferArg[T] {
	b.guarded = false
	return b
}

func (b *BufferArg[T]) reference() any { return slices.Clone(b.init) }

func (b *BufferArg[T]) device(d *gpu.Device) (any, error) {
	ks, err := leaves[T]()
	if err != nil {
		return nil, err
	}
	data := slices.Clone(b.init)
	if b.guarded {
		guard := make([]T, guardLen)
		poison(guard, ks)
		data = append(data, guard...)
	}
	return gpu.Upload(d, data)
}

func (b *BufferArg[T]) compare(ref, dev any, tol Tolerance) []Mismatch {
	want, _ := ref.([]T)
	buf, _ := dev.(*gpu.Buffer[T])
	ks, err := leaves[T]()
	if err != nil {
		return []Mismatch{{Err: err}}
	}
	if buf == nil || len(want) != len(b.init) {
		return []Mismatch{{Err: fmt.Errorf("gputest: argument of type %T is not a buffer of %v", dev, reflect.TypeFor[T]())}}
	}
	got := make([]T, buf.Len())
	if err := buf.Read(got); err != nil {
		return []Mismatch{{Err: err}}
	}
	n := len(want)
	ms := compareWords(words(want), words(got[:n]), ks, tol, false)
	if b.guarded {
		guard := make([]T, len(got)-n)
		poison(guard, ks)
		gm := compareWords(words(guard), words(got[n:]), ks, Exact, true)
		for i := range gm {
			gm[i].Word += n * len(ks)
		}
		ms = append(ms, gm...)
	}
	for i := range ms {
		ms[i].Elem, ms[i].Leaf = ms[i].Word/len(ks), ms[i].Word%len(ks)
	}
	return ms
}

func (b *BufferArg[T]) release(dev any) {
	if buf, ok := dev.(*gpu.Buffer[T]); ok {
		buf.Release()
	}
}

// ScalarArg is a scalar argument: a uniform.
type ScalarArg[T xpu.Number] struct{ v T }

// Scalar returns a scalar argument.
func Scalar[T xpu.Number](v T) ScalarArg[T] { return ScalarArg[T]{v} }

func (s ScalarArg[T]) reference() any                           { return s.v }
func (s ScalarArg[T]) device(*gpu.Device) (any, error)          { return s.v, nil }
func (s ScalarArg[T]) compare(_, _ any, _ Tolerance) []Mismatch { return nil }
func (s ScalarArg[T]) release(any)                              {}

// Mismatch is one word of a buffer where the device differs from the
// reference (or a guard word the device overwrote), or a failure to
// compare at all.
type Mismatch struct {
	Word       int          // index of the 32-bit word in the buffer
	Elem, Leaf int          // the element, and the leaf inside it
	Kind       reflect.Kind // the leaf's type
	Want, Got  uint32       // the bits
	Guard      bool         // the word is in the guard band
	Err        error        // set when the buffer could not be compared
}

func (m Mismatch) String() string {
	if m.Err != nil {
		return m.Err.Error()
	}
	var b strings.Builder
	where := fmt.Sprintf("[%d]", m.Elem)
	if m.Guard {
		where = fmt.Sprintf("guard word %d after the end", m.Word)
	}
	fmt.Fprintf(&b, "%s leaf %d: ", where, m.Leaf)
	switch m.Kind {
	case reflect.Float32:
		w, g := math.Float32frombits(m.Want), math.Float32frombits(m.Got)
		fmt.Fprintf(&b, "want %g (%#08x), got %g (%#08x), %d ulp apart", w, m.Want, g, m.Got, ULPDistance(w, g))
	case reflect.Int32:
		fmt.Fprintf(&b, "want %d (%#08x), got %d (%#08x)", int32(m.Want), m.Want, int32(m.Got), m.Got)
	case reflect.Int8:
		fmt.Fprintf(&b, "want %d (%#02x), got %d (%#02x)", int8(m.Want), m.Want, int8(m.Got), m.Got)
	case reflect.Int16:
		fmt.Fprintf(&b, "want %d (%#04x), got %d (%#04x)", int16(m.Want), m.Want, int16(m.Got), m.Got)
	default:
		fmt.Fprintf(&b, "want %d (%#08x), got %d (%#08x)", m.Want, m.Want, m.Got, m.Got)
	}
	return b.String()
}

// compareWords compares want and got word by word: float32 leaves within
// tol, integer leaves bit for bit.
func compareWords(want, got []uint32, ks []reflect.Kind, tol Tolerance, guard bool) []Mismatch {
	var ms []Mismatch
	for i := range want {
		k := ks[i%len(ks)]
		ok := want[i] == got[i]
		if !ok && k == reflect.Float32 {
			ok = tol.Within(math.Float32frombits(want[i]), math.Float32frombits(got[i]))
		}
		if !ok {
			ms = append(ms, Mismatch{Word: i, Kind: k, Want: want[i], Got: got[i], Guard: guard})
		}
	}
	return ms
}

// SameBits reports whether two runs' arguments (as [ReferenceArgs] makes
// them) hold the same values, float32 elements compared by their bits, so
// that a NaN equals itself and -0 differs from 0.
func SameBits(a, b []any) bool {
	return reflect.DeepEqual(floatBits(a), floatBits(b))
}

// floatBits replaces float32 slices with their bits.
func floatBits(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
		if f, ok := a.([]float32); ok {
			b := make([]uint32, len(f))
			for j := range f {
				b[j] = math.Float32bits(f[j])
			}
			out[i] = b
		}
	}
	return out
}
