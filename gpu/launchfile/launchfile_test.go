package launchfile

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestRoundTrip writes a header and a random payload and reads them
// back.
func TestRoundTrip(t *testing.T) {
	payload := make([]byte, 48)
	for i := range payload {
		payload[i] = byte(rand.Uint32())
	}
	h := &Header{Index: 3, Kernel: "example.com/k.Saxpy", Backend: "cpu", Target: "go", Hash: "sha256:ab", Grid: [3]uint32{2, 1, 1},
		Params: []Param{
			{Name: "y", Type: "float32", Size: 4, Access: "read-write", Len: 4, In: &Range{0, 16}, Out: &Range{32, 16}},
			{Name: "x", Type: "float32", Size: 4, Access: "read", Len: 4, In: &Range{16, 16}},
			{Name: "a", Type: "float32", Scalar: true, Bits: 0x3f800000},
		}}
	var b bytes.Buffer
	if err := Write(&b, h, payload); err != nil {
		t.Fatal(err)
	}
	got, gotPayload, err := Parse(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, h) || !bytes.Equal(gotPayload, payload) {
		t.Errorf("read back %+v and %d bytes, want %+v and %d", got, len(gotPayload), h, len(payload))
	}
	if !bytes.Equal(got.Params[0].Out.Slice(gotPayload), payload[32:]) {
		t.Error("y's range slices the wrong bytes")
	}
}

// TestRefused checks that headers that do not describe their payload are
// refused with ErrFormat, on writing and on reading.
func TestRefused(t *testing.T) {
	buf := func(in, out *Range) *Header {
		return &Header{Kernel: "k.K", Params: []Param{{Name: "y", Type: "float32", Size: 4, Len: 4, In: in, Out: out}}}
	}
	for name, h := range map[string]*Header{
		"no kernel":           {},
		"no contents before":  buf(nil, &Range{0, 16}),
		"range past the end":  buf(&Range{8, 16}, nil),
		"range of other size": buf(&Range{0, 12}, nil),
		"negative offset":     buf(&Range{-4, 16}, nil),
		"huge length":         {Kernel: "k.K", Params: []Param{{Name: "y", Size: 4, Len: 1 << 62, In: &Range{0, 0}}}},
	} {
		if err := Write(new(bytes.Buffer), h, make([]byte, 16)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Write: %v, want ErrFormat", name, err)
		}
	}
	for name, data := range map[string]string{
		"empty":         "",
		"other version": "xpu-launch 2\n{}\n",
		"no header end": Magic + "\n{\"kernel\":\"k.K\"}",
		"unknown field": Magic + "\n{\"kernel\":\"k.K\",\"extra\":1}\n",
		"not json":      Magic + "\nnot json\n",
		"payload short": Magic + "\n{\"kernel\":\"k.K\",\"params\":[{\"name\":\"y\",\"size\":4,\"len\":4,\"in\":{\"offset\":0,\"bytes\":16}}]}\n" + "0123",
	} {
		if _, _, err := Parse([]byte(data)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Parse: %v, want ErrFormat", name, err)
		}
	}
}
