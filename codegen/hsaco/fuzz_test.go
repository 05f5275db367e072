package hsaco

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu/codegen/sidecar"
)

// FuzzRead checks that no input makes Read panic, and that what it reads
// holds its own rules. Its seeds are the built objects.
func FuzzRead(f *testing.F) {
	f.Add([]byte("\x7fELF"))
	for _, b := range seeds(f) {
		f.Add(b.obj)
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		o, err := Read(obj)
		if err != nil {
			return
		}
		for _, k := range o.Kernels {
			if k.Name == "" || k.Symbol == "" {
				t.Fatalf("a kernel without a name or descriptor: %+v", k)
			}
			_ = Spill(&k, 0)
		}
	})
}

// seeds is the built objects, or nil without the LLVM tools: the fuzz
// target then starts from its other seeds.
func seeds(f *testing.F) []build {
	f.Helper()
	if tools, err := sidecar.Find(context.Background()); err != nil || tools == nil {
		return nil
	}
	return objects(f)
}

// TestMutations reads a bounded number of random mutations of the built
// objects (bytes flipped in the header, the note, anywhere): none may
// panic.
func TestMutations(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 13))
	for _, b := range objects(t) {
		for range 2000 {
			obj := append([]byte(nil), b.obj...)
			for range 1 + r.IntN(8) {
				i := r.IntN(len(obj))
				if r.IntN(2) == 0 {
					i = r.IntN(min(len(obj), 4096)) // the header, the tables, the note
				}
				obj[i] = byte(r.Uint32())
			}
			if o, err := Read(obj); err == nil {
				for _, k := range o.Kernels {
					_ = Spill(&k, 0)
				}
			}
		}
	}
}
