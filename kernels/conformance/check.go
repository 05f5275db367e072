package conformance

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
)

// Check runs every case of [Cases] on d, one subtest per kernel. A failure
// names the seed that reproduces it.
func Check(t *testing.T, d *gpu.Device) {
	t.Helper()
	seed, err := Seed()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Cases() {
		t.Run(c.Name(), func(t *testing.T) {
			err := Run(d, c, seed)
			known := c.Known[string(d.Backend())]
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
