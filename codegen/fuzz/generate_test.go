package fuzz

import (
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu/codegen/frontend"
)

// TestSourceValid checks the generator's promise on random bytes: every
// source it writes type-checks and passes the front end.
func TestSourceValid(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		data := make([]byte, r.IntN(2000))
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		src := Source(data)
		fset, files, pkg, info, err := typeCheck(src)
		if err == nil {
			_, err = frontend.Check(fset, files, pkg, info)
		}
		if err != nil {
			t.Fatalf("input %d: %v\n%s", i, err, numbered(src))
		}
	}
}
