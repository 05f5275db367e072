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

// TestPath checks that Path names each path as the tests switch to it.
func TestPath(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		if got, want := Path(), t.Name()[len("TestPath/"):]; got != want {
			t.Errorf("Path() = %q, want %q", got, want)
		}
	})
}
