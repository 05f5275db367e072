package core

import (
	"strings"
	"testing"
)

// TestWriteWithinWords writes a 7-byte buffer (of 8-bit elements): a
// write that ends at its end is padded to whole words; one that ends
// inside a word before the end is refused, since its padding would
// overwrite the elements after it.
func TestWriteWithinWords(t *testing.T) {
	_, d, _, _ := openFake(t)
	b, err := d.NewBuffer(7)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if err := b.Write(0, make([]byte, 7)); err != nil {
		t.Errorf("a write of the whole 7-byte buffer: %v", err)
	}
	if err := b.Write(4, make([]byte, 3)); err != nil {
		t.Errorf("a write of the buffer's last 3 bytes: %v", err)
	}
	err = b.Write(0, make([]byte, 3))
	if err == nil || !strings.Contains(err.Error(), "ends inside a word") {
		t.Errorf("a write of 3 bytes before the end: %v, want a refusal that it ends inside a word", err)
	}
}
