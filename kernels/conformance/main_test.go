package conformance_test

import (
	"os"
	"testing"

	"github.com/goxpu/xpu/gpu/gputest"
)

// TestMain runs the tests, then the kernel census of the package: a run of
// every test must have value-checked every kernel on every backend it used.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/gpu/gputest", nil))
}
