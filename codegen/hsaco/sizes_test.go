package hsaco

import (
	"bytes"
	"debug/elf"
	"math/rand/v2"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// TestCheckSizes checks that values the encoder writes pass and that
// stated lengths past the bytes left are refused, before any decoder
// allocates them.
func TestCheckSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 17))
	for range 200 {
		v := map[string]any{
			"s": string(make([]byte, r.IntN(300))), "i": r.Int64() - 1<<62, "f": r.Float64(), "b": make([]byte, r.IntN(70000)),
			"a": []any{r.Uint32(), int8(-3), nil, true, float32(1.5), []string{"x", "y"}}, "m": map[string]int{"k": r.IntN(1 << 20)},
		}
		b, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkSizes(b); err != nil {
			t.Fatalf("an encoded value is refused: %v", err)
		}
		if err := checkSizes(b[:len(b)-1]); err == nil {
			t.Fatal("a value one byte short passes")
		}
	}
	for _, bad := range [][]byte{
		{0xdd, 0x8f, 0xab, 0x2e, 0x61, 0x01},       // an array32 of 2.4 billion elements
		{0xdf, 0x00, 0x10, 0x00, 0x00, 0x01, 0x02}, // a map32 of 2^20 pairs
		{0xdb, 0x7f, 0xff, 0xff, 0xff, 'a'},        // a str32 of 2 GiB
		{0xc9, 0x00, 0x00, 0x10, 0x00, 0x01},       // an ext32 of 4 KiB
		{0x93, 0x01},                               // a fixarray of 3 in 1 byte
		{0x81, 0xa1, 'k'},                          // a map whose value is missing
		{0xc1},                                     // the byte no value starts with
		{0xdc, 0x00},                               // a count cut short
	} {
		if err := checkSizes(bad); err == nil {
			t.Errorf("% x passes", bad)
		}
	}
}

// TestReadHugeCount checks that an object whose metadata note states an
// array of 2.4 billion elements is refused, not decoded (it took 36 GB).
func TestReadHugeCount(t *testing.T) {
	for _, b := range objects(t) {
		f, err := elf.NewFile(bytes.NewReader(b.obj))
		if err != nil {
			t.Fatal(err)
		}
		note, err := metadataNote(f)
		if err != nil {
			t.Fatal(err)
		}
		at := bytes.Index(b.obj, note)
		j := -1 // a fixarray header
		for i, c := range note {
			if c >= 0x91 && c <= 0x9f {
				j = i
				break
			}
		}
		if at < 0 || j < 0 || j+5 > len(note) {
			t.Fatalf("%s: no fixarray in the note", b.cpu)
		}
		obj := append([]byte(nil), b.obj...)
		copy(obj[at+j:], []byte{0xdd, 0x8f, 0xab, 0x2e, 0x61})
		if _, err := Read(obj); err == nil {
			t.Errorf("%s: a note stating 2.4 billion elements was read", b.cpu)
		}
	}
}
