package sort_test

import (
	"os"
	"testing"

	"github.com/goxpu/xpu/gpu/gputest"
)

// TestMain runs the tests, then the kernel census of the package: every
// kernel must have been value-checked on every backend the tests used.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/kernels/sort", nil))
}
