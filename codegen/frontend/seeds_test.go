package frontend

import "testing"

// TestFuzzSeeds checks that the fuzz seeds type-check and pass Check, so
// that they reach the paths they are meant to.
func TestFuzzSeeds(t *testing.T) {
	for i, s := range fuzzSeeds {
		m, err := checkSource(t, s)
		if err != nil {
			t.Errorf("seed %d: %v", i, err)
			continue
		}
		for _, k := range m.Kernels {
			t.Logf("%s", dump(k))
		}
	}
}
