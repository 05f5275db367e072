package gputest

import (
	"fmt"
	"reflect"
	"unsafe"
)

// A buffer element is seen by the harness as a sequence of 32-bit words,
// each an int32, uint32 or float32 leaf of the element's type. Poisoning
// and comparison work on these words, so that NaN payloads and integer
// bits survive untouched. An element that is a narrow integer (int8,
// uint8, int16, uint16) is one word of its own: its bits, zero-extended.

// leaves returns the kinds of the 32-bit leaves of T, in memory order.
func leaves[T any]() ([]reflect.Kind, error) {
	var ks []reflect.Kind
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		switch t.Kind() {
		case reflect.Int32, reflect.Uint32, reflect.Float32:
			ks = append(ks, t.Kind())
		case reflect.Struct:
			for i := range t.NumField() {
				if err := walk(t.Field(i).Type); err != nil {
					return err
				}
			}
		case reflect.Array:
			for range t.Len() {
				if err := walk(t.Elem()); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("gputest: element type %v holds a %v, not a 32-bit scalar", reflect.TypeFor[T](), t)
		}
		return nil
	}
	t := reflect.TypeFor[T]()
	if narrowKind(t.Kind()) {
		return []reflect.Kind{t.Kind()}, nil
	}
	if err := walk(t); err != nil {
		return nil, err
	}
	if uintptr(len(ks))*4 != t.Size() {
		return nil, fmt.Errorf("gputest: element type %v has padding", t)
	}
	return ks, nil
}

// narrowKind reports whether k is an 8- or 16-bit integer kind.
func narrowKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16:
		return true
	}
	return false
}

// words views s as its 32-bit words; a slice of narrow integers is copied
// into words of their bits instead, to read only.
func words[T any](s []T) []uint32 {
	if len(s) == 0 {
		return nil
	}
	if v := reflect.ValueOf(s); narrowKind(v.Type().Elem().Kind()) {
		ws := make([]uint32, len(s))
		for i := range ws {
			e := v.Index(i)
			if e.CanInt() {
				ws[i] = uint32(e.Int()) & (1<<(8*e.Type().Size()) - 1)
			} else {
				ws[i] = uint32(e.Uint())
			}
		}
		return ws
	}
	n := len(s) * int(unsafe.Sizeof(s[0])) / 4
	return unsafe.Slice((*uint32)(unsafe.Pointer(&s[0])), n)
}

// The poison patterns written into outputs before a run: a quiet NaN with
// a payload for float32 leaves, 0xDEADBEEF for integer leaves.
const (
	poisonFloat = 0x7fc0dead
	poisonInt   = 0xdeadbeef
)

// poisonWord returns the poison for a leaf of kind k.
func poisonWord(k reflect.Kind) uint32 {
	if k == reflect.Float32 {
		return poisonFloat
	}
	return poisonInt
}

// poison fills s with the poison of its leaves; narrow integers get the
// bytes of the integer poison.
func poison[T any](s []T, ks []reflect.Kind) {
	if len(s) > 0 && narrowKind(ks[0]) {
		b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
		for i := range b {
			b[i] = byte(uint32(poisonInt) >> (8 * (i % 4)))
		}
		return
	}
	ws := words(s)
	for i := range ws {
		ws[i] = poisonWord(ks[i%len(ks)])
	}
}
