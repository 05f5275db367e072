package simd

import "testing"

// forEachPath runs f once per path the processor has, pure Go first,
// with the package's switches set to it.
func forEachPath(t *testing.T, f func(t *testing.T)) {
	for _, name := range pathNames() {
		restore := usePath(name)
		t.Run(name, f)
		restore()
	}
}
