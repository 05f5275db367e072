package frontend

import "testing"

// TestFuzzSeeds checks that the fuzz seeds type-check, so that they reach
// Check, and that the valid ones (the first two) pass it.
func TestFuzzSeeds(t *testing.T) {
	for i, s := range fuzzSeeds {
		fset, files, pkg, info, err := typeCheck("k.go", []byte(s))
		if err != nil {
			t.Errorf("seed %d does not type-check: %v", i, err)
			continue
		}
		_, err = Check(fset, files, pkg, info)
		switch {
		case i < 2 && err != nil:
			t.Errorf("seed %d: %v", i, err)
		case i >= 2 && err == nil:
			t.Errorf("seed %d: no refusal", i)
		case err != nil:
			t.Logf("seed %d:\n%v", i, err)
		}
	}
}
