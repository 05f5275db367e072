package wgslgen

import (
	"fmt"

	"github.com/goxpu/xpu/codegen/ir"
)

// Error is a kernel the WGSL lowering refuses or cannot carry: the rule,
// where the kernel breaks it, and why.
type Error struct {
	Pos  ir.Pos
	Rule string // e.g. "xpu-atomic-struct"
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%v: [%s] %s", e.Pos, e.Rule, e.Msg) }

// The rules this lowering can report.
const (
	ruleWaveTier     = "xpu-wave-tier"      // wave queries or a declared wave width
	ruleAtomicStruct = "xpu-atomic-struct"  // an atomic on a struct field
	ruleAtomicAccess = "xpu-atomic-access"  // an atomic on a buffer the analysis did not mark atomic
	ruleHostShare    = "xpu-host-shareable" // a bool in a buffer element or a uniform
	ruleName         = "xpu-name"           // two kernel names that mangle alike
	ruleBinding      = "xpu-binding"        // bindings or uniform offsets off the driver contract
	ruleBarrier      = "xpu-barrier-nonuniform"
	ruleCompare      = "xpu-compare"      // == or != on arrays or structs
	ruleNesting      = "xpu-nesting"      // statements nested deeper than WGSL compilers take
	rulePrivateSize  = "xpu-private-size" // a private array too large for the drivers
	ruleIR           = "xpu-ir"           // malformed IR: a front-end bug
)
