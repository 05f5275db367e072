package quant_test

import (
	"os"
	"testing"

	"github.com/goxpu/xpu/gpu/gputest"
)

// TestMain runs the tests, then the kernel census of the package: every
// kernel must have been value-checked on every backend it ran on.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, pkg, nil))
}

// pkg is the import path of the package, which prefixes its kernels' names.
const pkg = "github.com/goxpu/xpu/kernels/quant"
