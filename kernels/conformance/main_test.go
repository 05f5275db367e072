package conformance_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/goxpu/xpu/kernels/conformance"
)

// TestMain runs the tests, then the kernel census of the package: a run of
// every test must have value-checked every kernel on every backend it used.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		for _, f := range conformance.Census("github.com/goxpu/xpu/kernels/conformance", nil) {
			fmt.Fprintln(os.Stderr, "census:", f)
			code = 1
		}
	}
	os.Exit(code)
}
