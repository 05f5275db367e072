package codegen

import (
	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/ir"
)

// Lower runs the analyses and every lowering on each kernel of m, as
// [Build] does before it writes the file, and returns the kernels with
// their artifacts for [emit.File]. A kernel that an analysis or a lowering
// refuses is left out and its error joined into the result. It serves
// tools that check the lowerings without a package directory (the
// pipeline fuzzer, codegen/fuzz).
func Lower(m *ir.Module) ([]emit.Lowered, error) { return lower(m) }
