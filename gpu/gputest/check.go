package gputest

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
)

// Check runs every case of cases on d (see [Run]), one subtest per
// kernel. A failure names the seed that reproduces it. A case marked with
// a known bug on d's backend is skipped, naming the bug, when it fails
// there, and fails when it passes, so that a fixed bug's mark is removed.
func Check(t *testing.T, d *gpu.Device, cases []*Case) {
	t.Helper()
	seed, err := Seed()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			err := Run(d, c, seed)
			known := c.Known[d.Backend()]
			switch {
			case err != nil && known != "":
				t.Skipf("KNOWN BUG on %s: %s\n%v\n(seed %d)", d.Backend(), known, err, seed)
			case err != nil:
				t.Errorf("%v\n(seed %d: rerun with %s=%d)", err, seed, SeedEnv, seed)
			case known != "":
				t.Errorf("passes on %s, but is marked with the known bug %q: remove the mark", d.Backend(), known)
			}
		})
	}
}
