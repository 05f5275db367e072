package quant_test

import (
	"os"
	"testing"
)

// smallShapes reports whether the reference suite checks its smaller
// shapes alone, every kernel still on every device: in short mode, under
// the race detector, and where XPU_SHAPES=small, which scripts/test sets
// on its passes that rerun the suites on other backends (Dawn, the CPU
// backend's Go tier) after its first pass checked every shape.
func smallShapes() bool {
	return testing.Short() || underRace || os.Getenv("XPU_SHAPES") == "small"
}
