package frontend

// Rule names a refusal of the front end. Each rule is a part of the Go
// language, or a use of it, that the kernel language does not accept; an
// [Error] carries the rule in brackets and a sentence on how to fix the
// code.
type Rule string

const (
	// RuleNoMap: maps have no device representation.
	RuleNoMap Rule = "xpu-no-map"

	// RuleNoInterface: interfaces, type assertions and type switches need
	// dynamic dispatch, which devices do not have.
	RuleNoInterface Rule = "xpu-no-interface"

	// RuleNoClosure: function literals and function values; device code
	// calls only named functions of the kernel's package.
	RuleNoClosure Rule = "xpu-no-closure"

	// RuleNoGoroutine: go statements; the launch is the parallelism.
	RuleNoGoroutine Rule = "xpu-no-goroutine"

	// RuleNoChannel: channel types, sends, receives and select.
	RuleNoChannel Rule = "xpu-no-channel"

	// RuleNoDefer: defer statements.
	RuleNoDefer Rule = "xpu-no-defer"

	// RuleNoRecursion: a device function that calls itself, directly or
	// through others; devices have no call stack to recurse on.
	RuleNoRecursion Rule = "xpu-no-recursion"

	// RuleNoAlloc: make, new, append and slice literals; device memory
	// is the buffers, shared arrays and private arrays only.
	RuleNoAlloc Rule = "xpu-no-alloc"

	// RuleNoString: strings and string operations.
	RuleNoString Rule = "xpu-no-string"

	// RuleNo64Bit: int, uint, uintptr and float64 values and variables,
	// and 64-bit indexes; int and uint are platform-sized and device
	// floats are 32-bit. Untyped constants are fine where they become a
	// typed value; int64 and uint64 are private values
	// ([xpu-wide-memory] names where they may not be).
	RuleNo64Bit Rule = "xpu-no-64bit"

	// RuleScalarType: complex numbers and other types that are no
	// kernel scalar; the scalars are int32, uint32, float32, bool and the
	// narrow integers int8, uint8, int16 and uint16.
	RuleScalarType Rule = "xpu-scalar-type"

	// RuleBarrierNonuniform: a barrier (Thread.Barrier, or a call of a
	// device function that reaches one) in control flow that is not
	// workgroup-uniform.
	RuleBarrierNonuniform Rule = "xpu-barrier-nonuniform"

	// RuleWaveNonuniform: a wave verb in control flow that is not
	// workgroup-uniform.
	RuleWaveNonuniform Rule = "xpu-wave-nonuniform"

	// RuleWaveBallot: xpu.WaveBallot in a kernel that declares a wave of
	// more than 32 lanes (its mask is 32 bits).
	RuleWaveBallot Rule = "xpu-wave-ballot"

	// RuleSharedSize: an xpu.Shared size that is not a positive constant.
	RuleSharedSize Rule = "xpu-shared-size"

	// RuleSharedPlacement: an xpu.Shared call that is not the value of a
	// variable declared at the top level of a kernel body.
	RuleSharedPlacement Rule = "xpu-shared-placement"

	// RuleImport: a use of a package other than xpu's kernel vocabulary
	// and the kernel's own package (constants of any package are fine).
	RuleImport Rule = "xpu-import"

	// RuleNoPointer: pointers, address-of and indirection, except the
	// &buf[i] argument of an atomic.
	RuleNoPointer Rule = "xpu-no-pointer"

	// RuleNoGoto: goto, labels and labeled break or continue.
	RuleNoGoto Rule = "xpu-no-goto"

	// RuleNoPanic: panic, recover, print and println.
	RuleNoPanic Rule = "xpu-no-panic"

	// RuleKernelSignature: a kernel whose signature does not fit: the
	// first parameter is not xpu.Thread, it has results, a receiver,
	// is variadic, or has more than one comptime struct parameter.
	RuleKernelSignature Rule = "xpu-kernel-signature"

	// RuleFuncSignature: a device function whose signature does not fit:
	// more than one result, named results, a receiver or variadic
	// parameters.
	RuleFuncSignature Rule = "xpu-func-signature"

	// RuleDirective: a malformed //xpu: directive.
	RuleDirective Rule = "xpu-directive"

	// RuleStructLayout: a struct used by a kernel with a field that is
	// not a 32-bit scalar or an array of them, or an unnamed struct type.
	RuleStructLayout Rule = "xpu-struct-layout"

	// RuleArraySize: an array type with a length outside 1..65536, or
	// one (an array of arrays, a shared array) that holds more than
	// 65536 scalars.
	RuleArraySize Rule = "xpu-array-size"

	// RuleRequires: a requires clause that cannot be evaluated to a
	// boolean constant. (A clause that is false refuses its member; that
	// is not an error but a Module.Refused entry.)
	RuleRequires Rule = "xpu-requires"

	// RuleNoSlicing: slice expressions on buffers and shared arrays.
	RuleNoSlicing Rule = "xpu-no-slicing"

	// RuleNoFallthrough: fallthrough in a switch.
	RuleNoFallthrough Rule = "xpu-no-fallthrough"

	// RuleSwitchBreak: an unlabeled break inside a switch (it would leave
	// the switch, which device code lowers to an if chain).
	RuleSwitchBreak Rule = "xpu-switch-break"

	// RuleBufferVar: a buffer or shared array stored in a variable,
	// assigned, or passed where its identity is not known.
	RuleBufferVar Rule = "xpu-buffer-var"

	// RuleRange: range over anything but an integer.
	RuleRange Rule = "xpu-range"

	// RuleConstOverflow: a constant that does not fit the 32-bit type it
	// becomes (1e39 as a float32, 1<<32 as a uint32), also one computed
	// from comptime fields.
	RuleConstOverflow Rule = "xpu-const-overflow"

	// RuleStructUniform: a struct parameter of a kernel that is not a
	// template. A struct parameter is a template's comptime parameter;
	// uniforms are scalars.
	RuleStructUniform Rule = "xpu-struct-uniform"

	// RuleTypeParam: a type parameter whose constraint admits types
	// other than the kernel scalars (any, a method, int64 in a union),
	// or type arguments that do not satisfy it.
	RuleTypeParam Rule = "xpu-type-param"

	// RuleNarrowPlace: an 8- or 16-bit integer as a struct field, a
	// shared array's element, an element of an array a buffer holds, or
	// a uniform parameter, or the target of an atomic; narrow integers
	// are buffer elements and private values only.
	RuleNarrowPlace Rule = "xpu-narrow-place"

	// RuleWideMemory: an int64 or uint64 as a buffer element, a shared
	// array's element, a struct field, a uniform parameter or the target
	// of an atomic; 64-bit integers are private values only.
	RuleWideMemory Rule = "xpu-wide-memory"

	// RuleFloat16Arith: arithmetic, comparison or a numeric conversion
	// on an xpu.Float16, which holds binary16 bits: on the bits they
	// would be integer operations. Convert with .Float32() and back with
	// xpu.Float16From.
	RuleFloat16Arith Rule = "xpu-float16-arith"

	// RuleUnsupported: any other construct outside the kernel language.
	RuleUnsupported Rule = "xpu-unsupported"
)

// fixes is the default fix sentence of each rule.
var fixes = map[Rule]string{
	RuleNoMap:             "use a buffer indexed by a computed key instead of a map",
	RuleNoInterface:       "use concrete types; dispatch with if or switch on a value",
	RuleNoClosure:         "move the code into a named function of the kernel's package",
	RuleNoGoroutine:       "launch more work-items instead of starting goroutines",
	RuleNoChannel:         "communicate through buffers or shared arrays and t.Barrier()",
	RuleNoDefer:           "run the deferred code explicitly before each return",
	RuleNoRecursion:       "rewrite the recursion as a loop",
	RuleNoAlloc:           "pass a buffer, use xpu.Shared, or use a fixed-size array such as var a [4]float32",
	RuleNoString:          "encode text as int32 or uint32 values",
	RuleNo64Bit:           "use int32, uint32 or float32",
	RuleScalarType:        "use int32, uint32 or float32",
	RuleBarrierNonuniform: "move the barrier out of the branch or loop whose condition depends on the work-item, or make that condition uniform",
	RuleWaveNonuniform:    "move the wave verb out of the branch or loop whose condition depends on the work-item (the lanes of a wave meet at it, like a barrier)",
	RuleWaveBallot:        "declare wave=32 or less, or combine the predicate with WaveSum of 0/1 values",
	RuleSharedSize:        "give xpu.Shared a positive constant size (constants and comptime fields)",
	RuleSharedPlacement:   "declare the shared array at the top level of the kernel body, as s := xpu.Shared[float32](t, n), and pass it to functions",
	RuleImport:            "call only xpu's kernel vocabulary and functions of the kernel's own package",
	RuleNoPointer:         "index buffers and arrays directly; atomics take &buf[i] or &shared[i]",
	RuleNoGoto:            "use structured control flow (if, for, unlabeled break and continue)",
	RuleNoPanic:           "signal failures through a buffer the host reads back",
	RuleKernelSignature:   "declare a kernel as func K(t xpu.Thread, buffers []T, scalars T, [comptime C]) with no results",
	RuleFuncSignature:     "give device functions plain parameters and at most one unnamed result",
	RuleDirective:         "write //xpu:kernel block=X[,Y[,Z]] [wave=W] [len(buffer)=scalar[*scalar...]], //xpu:instance Name Type{Field: const, ...} (or Name Func[T, ...] [Type{...}] for a generic kernel) and //xpu:requires <boolean expression>",
	RuleStructLayout:      "use a named struct whose fields are int32, uint32 or float32, or arrays of them",
	RuleArraySize:         "split the array, or keep the data in a buffer",
	RuleRequires:          "write the clause as a boolean expression over constants and the comptime parameter's fields",
	RuleNoSlicing:         "index the whole buffer with an offset instead of re-slicing it",
	RuleNoFallthrough:     "merge the cases or repeat the code instead of falling through",
	RuleSwitchBreak:       "use if/else instead of a switch that breaks out early",
	RuleBufferVar:         "use the buffer parameter or the shared array's variable directly",
	RuleRange:             "range over an index instead: for i := range uint32(len(y))",
	RuleConstOverflow:     "use a constant within the type's range, or a wider type's constant converted at run time",
	RuleStructUniform:     "pass the struct's fields as scalar parameters (each a uniform), or add //xpu:instance lines to make the kernel a template whose comptime parameter it is",
	RuleTypeParam:         "constrain type parameters to unions of int32, uint32 and float32, and instantiate a generic kernel with //xpu:instance Name Func[float32]",
	RuleNarrowPlace:       "keep the value in a uint32 or int32 there and convert it where it is used (uint8(w), uint32(b))",
	RuleWideMemory:        "store the value as two uint32 words, lo := uint32(x) and hi := uint32(x >> 32), and join them where it is read: uint64(hi)<<32 | uint64(lo)",
	RuleFloat16Arith:      "compute in float32: x := h.Float32(), and store xpu.Float16From(x)",
	RuleUnsupported:       "rewrite the code in the kernel language (see the xpu package documentation)",
}
