package names

import "testing"

// barCPU is the default name of Bar's CPU function, taken by a test file
// of the package.
var barCPU = 6

func TestNames(t *testing.T) {
	if close() == 0 || barCPU == 0 {
		t.Fatal("zero")
	}
}
