// Package dispatch is the registry that picks, for an operation and the
// descriptors of its operands (each one's format and layout class) on a
// device, the kernel that takes them.
//
// Selection is exact and explainable. A [Kernel] declares the operation,
// the descriptor of every operand and the backends it runs on; a lookup
// takes the registered kernel of the highest [Priority] whose
// declaration matches the operands exactly and whose Accept rule, if it
// has one, admits them. When none matches but one would after an
// [Adapter] converts one input (an activation requantized, a weight
// dequantized or packed into another layout), the plan inserts the
// adapter visibly: its temporary lives in the caller's [Scope], the
// device's trace sink (package gpu/trace) sees it, and an adapter that packs a weight runs per call
// only when the registry is told to allow it, packing once at load
// ([Registry.Convert]) being the path the error names. When nothing
// matches at all, the operation's reference, a host implementation,
// runs, with a warning once per process for each key it stands in for;
// a registry without fallback refuses instead, naming what is
// registered for the operation.
//
// A registry starts from an automatic set of kernels, which its first
// lookup installs, unless kernels were registered explicitly before it:
// then the registry holds exactly those, so that a curated set is never
// silently widened. [Registry.Matrix] renders what is registered as a
// support matrix (operation x operands x backend).
//
// Layering: dispatch knows the runtime (gpu), tensors and the tuner, and
// no kernel; the library's front (package kernels) declares the
// operations and the automatic set.
package dispatch
