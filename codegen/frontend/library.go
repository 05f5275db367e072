package frontend

// This file lowers calls of the library functions kernels call: xpu's
// math, and the functions of packages math and math/bits that have a
// device form, under their Go names. The table library is the one place
// that says which function has which form; a function of math or
// math/bits without one is refused with the nearest that has one.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"sort"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// libFunc is the device form of a library function: a builtin, a
// reinterpretation of bits (bitcast is the result type), or a constant
// (math.Inf and math.NaN, whose value is a float32 of the given bits).
type libFunc struct {
	builtin  ir.Builtin
	bitcast  *ir.Basic
	constant func(f *fnState, e *ast.CallExpr) (uint32, bool)
}

// library maps "package path.Name" to the device form of the function.
var library = map[string]libFunc{
	xpuPath + ".Sqrt": {builtin: ir.Sqrt}, xpuPath + ".Exp": {builtin: ir.Exp},
	xpuPath + ".Exp2": {builtin: ir.Exp2}, xpuPath + ".Log": {builtin: ir.Log},
	xpuPath + ".Log2": {builtin: ir.Log2}, xpuPath + ".Pow": {builtin: ir.Pow},
	xpuPath + ".Sin": {builtin: ir.Sin}, xpuPath + ".Cos": {builtin: ir.Cos},
	xpuPath + ".Tan": {builtin: ir.Tan}, xpuPath + ".Tanh": {builtin: ir.Tanh},
	xpuPath + ".Abs": {builtin: ir.Abs}, xpuPath + ".Floor": {builtin: ir.Floor},
	xpuPath + ".Ceil": {builtin: ir.Ceil}, xpuPath + ".Round": {builtin: ir.Round},
	xpuPath + ".Trunc": {builtin: ir.Trunc}, xpuPath + ".Min": {builtin: ir.Min},
	xpuPath + ".Max": {builtin: ir.Max}, xpuPath + ".Fma": {builtin: ir.Fma},
	xpuPath + ".Clamp": {builtin: ir.Clamp}, xpuPath + ".Rsqrt": {builtin: ir.Rsqrt},
	xpuPath + ".Float32Bits":     {bitcast: ir.U32Type},
	xpuPath + ".Float32FromBits": {bitcast: ir.F32Type},

	"math.Float32bits":     {bitcast: ir.U32Type},
	"math.Float32frombits": {bitcast: ir.F32Type},
	"math.Inf":             {constant: infBits},
	"math.NaN":             {constant: nanBits},

	"math/bits.OnesCount32":     {builtin: ir.OnesCount32},
	"math/bits.LeadingZeros32":  {builtin: ir.LeadingZeros32},
	"math/bits.TrailingZeros32": {builtin: ir.TrailingZeros32},
	"math/bits.Len32":           {builtin: ir.Len32},
	"math/bits.Reverse32":       {builtin: ir.Reverse32},
	"math/bits.ReverseBytes32":  {builtin: ir.ReverseBytes32},
	"math/bits.RotateLeft32":    {builtin: ir.RotateLeft32},
	"math/bits.Mul32":           {builtin: ir.MulHi32}, // hi, lo := bits.Mul32(x, y): see tupleCall
}

// libraryHints are the fixes of functions whose nearest device form is
// not a function of a similar name.
var libraryHints = map[string]string{
	"math.IsNaN":      "compare the float32 with itself: x != x holds only for a NaN",
	"math.IsInf":      "compare with float32(math.Inf(1)) and float32(math.Inf(-1))",
	"math.Signbit":    "test the sign bit: math.Float32bits(x)>>31 != 0",
	"math/bits.Add32": "add with the carry spelled out: s := x + y; carry := uint32(0); if s < x { carry = 1 }",
	"math/bits.Sub32": "subtract with the borrow spelled out: d := x - y; borrow := uint32(0); if x < y { borrow = 1 }",
	"math/bits.Div32": "divide uint32 values with / and %",
}

// isLibraryPackage reports whether path is a standard package whose
// functions the kernel language maps.
func isLibraryPackage(path string) bool { return path == "math" || path == "math/bits" }

// libraryCall lowers a call of the function fn of package xpu, math or
// math/bits, or refuses it. want is the type of the conversion the call
// is the operand of (nil when it is none): a function whose Go result is
// int or float64 is accepted only there, as uint32(bits.OnesCount32(x))
// or float32(math.Inf(1)).
func (f *fnState) libraryCall(e *ast.CallExpr, fn *types.Func, want ir.Type) ir.Expr {
	c := f.c
	key := fn.Pkg().Path() + "." + fn.Name()
	lf, ok := library[key]
	if !ok || lf.builtin == ir.MulHi32 {
		f.refuseLibrary(e, key)
		return f.bad()
	}
	wide := wideResult(fn)
	if wide != "" && want == nil {
		c.errorFix(e.Pos(), RuleNo64Bit, "convert it: "+convertedSpelling(fn, wide), "%s yields an %s", displayName(key), wide)
		return f.bad()
	}
	switch {
	case lf.constant != nil:
		bits, ok := lf.constant(f, e)
		if !ok {
			return f.bad()
		}
		if !ir.IsKind(want, ir.F32) {
			c.errorFix(e.Pos(), RuleNo64Bit, "convert it: float32("+types.ExprString(e)+")", "%s yields a float64", displayName(key))
			return f.bad()
		}
		return &ir.Const{T: ir.F32Type, Bits: bits}
	case lf.bitcast != nil:
		from := ir.F32Type
		if lf.bitcast == ir.F32Type {
			from = ir.U32Type
		}
		return &ir.Bitcast{X: f.exprHint(e.Args[0], from), T: lf.bitcast}
	}
	nerr := f.trouble()
	var t ir.Type = ir.U32Type
	if !lf.builtin.IsBits() {
		if t = f.irTypeOf(e, nerr); t == nil {
			return f.bad()
		}
	}
	sig := fn.Type().(*types.Signature)
	args := make([]ir.Expr, len(e.Args))
	for i, a := range e.Args {
		switch {
		case isPlatformInt(sig.Params().At(i).Type()):
			args[i] = f.intOperand(a)
		case lf.builtin.IsBits():
			args[i] = f.exprHint(a, ir.U32Type)
		default:
			args[i] = f.exprHint(a, t)
		}
	}
	if f.trouble() > nerr {
		return f.bad()
	}
	return &ir.CallBuiltin{Fn: lf.builtin, Args: args, T: t}
}

// tupleCall lowers the right side of hi, lo := bits.Mul32(x, y) (or =)
// to its two values, reporting whether r is that call.
func (f *fnState) tupleCall(lhs []ast.Expr, r ast.Expr) ([]ir.Expr, bool) {
	call, ok := ast.Unparen(r).(*ast.CallExpr)
	if !ok || len(lhs) != 2 || len(call.Args) != 2 {
		return nil, false
	}
	fn, ok := f.callee(call.Fun).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path()+"."+fn.Name() != "math/bits.Mul32" {
		return nil, false
	}
	x := f.temp(f.exprHint(call.Args[0], ir.U32Type), call.Args[0].Pos())
	y := f.temp(f.exprHint(call.Args[1], ir.U32Type), call.Args[1].Pos())
	hi := &ir.CallBuiltin{Fn: ir.MulHi32, Args: []ir.Expr{x, y}, T: ir.U32Type}
	lo := &ir.Binary{Op: ir.OpMul, X: x, Y: y, T: ir.U32Type}
	return []ir.Expr{hi, lo}, true
}

// assignTuple assigns (or, with :=, declares) the values of a tuple call
// to the left side of s, from left to right as Go does.
func (f *fnState) assignTuple(s *ast.AssignStmt, vals []ir.Expr) {
	c := f.c
	for i, l := range s.Lhs {
		id, isIdent := l.(*ast.Ident)
		switch {
		case isIdent && id.Name == "_":
		case isIdent && s.Tok == token.DEFINE && c.info.Defs[id] != nil:
			f.declare(id, vals[i], nil)
		default:
			nerr := f.trouble()
			dst := f.place(l, false)
			if f.trouble() > nerr {
				continue
			}
			f.emit(&ir.Assign{Dst: dst, Value: vals[i], Pos: c.pos(l.Pos())})
		}
	}
}

// intOperand lowers an operand of Go type int (RotateLeft32's count): a
// constant, or the conversion int(x) of a 32-bit integer x.
func (f *fnState) intOperand(a ast.Expr) ir.Expr {
	if _, ok := f.constValue(a); ok {
		return f.exprHint(a, ir.I32Type)
	}
	if conv, ok := ast.Unparen(a).(*ast.CallExpr); ok && len(conv.Args) == 1 {
		if tv, ok := f.c.info.Types[conv.Fun]; ok && tv.IsType() {
			x := f.expr(conv.Args[0])
			if ir.IsKind(x.Type(), ir.I32) || ir.IsKind(x.Type(), ir.U32) {
				return x
			}
		}
	}
	f.c.errorFix(a.Pos(), RuleNo64Bit, "pass a constant or int(k) of an int32 or uint32 k", "the int operand %s", types.ExprString(a))
	return f.bad()
}

// isPlatformInt reports whether t is int.
func isPlatformInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Int
}

// wideResult returns "int" or "float64" when fn's Go result is one.
func wideResult(fn *types.Func) string {
	res := fn.Type().(*types.Signature).Results()
	if res.Len() != 1 {
		return ""
	}
	if b, ok := res.At(0).Type().Underlying().(*types.Basic); ok {
		switch b.Kind() {
		case types.Int:
			return "int"
		case types.Float64:
			return "float64"
		}
	}
	return ""
}

// convertedSpelling shows the call of fn inside the conversion it needs.
func convertedSpelling(fn *types.Func, wide string) string {
	name := displayName(fn.Pkg().Path() + "." + fn.Name())
	if wide == "float64" {
		return "float32(" + name + "(...))"
	}
	return "uint32(" + name + "(x)) or int32(" + name + "(x))"
}

// infBits is math.Inf(sign) for a constant sign.
func infBits(f *fnState, e *ast.CallExpr) (uint32, bool) {
	v, ok := f.constValue(e.Args[0])
	if !ok {
		f.c.errorFix(e.Args[0].Pos(), RuleUnsupported, "pass a constant sign: math.Inf(1) or math.Inf(-1)", "math.Inf of a sign that is not constant")
		return 0, false
	}
	if constant.Sign(v) < 0 {
		return math.Float32bits(float32(math.Inf(-1))), true
	}
	return math.Float32bits(float32(math.Inf(1))), true
}

// nanBits is math.NaN() as float32 converts it: the quiet NaN.
func nanBits(*fnState, *ast.CallExpr) (uint32, bool) {
	return math.Float32bits(float32(math.NaN())), true
}

// refuseLibrary refuses a function of math or math/bits that has no
// device form, naming the nearest that has one.
func (f *fnState) refuseLibrary(e *ast.CallExpr, key string) {
	name := displayName(key)
	if key == "math/bits.Mul32" {
		f.c.errorFix(e.Pos(), RuleFuncSignature, "assign both results: hi, lo := bits.Mul32(x, y)", "bits.Mul32 outside an assignment of its two results")
		return
	}
	if hint, ok := libraryHints[key]; ok {
		f.c.errorFix(e.Pos(), RuleImport, hint, "%s has no device form", name)
		return
	}
	f.c.errorFix(e.Pos(), RuleImport, "call "+displayName(nearestLibrary(key))+", the nearest function with a device form", "%s has no device form", name)
}

// nearestLibrary returns the key of the library function nearest key: the
// same name in another package, then the same name but for its width
// (OnesCount64, OnesCount), then the fewest edits of the name.
func nearestLibrary(key string) string {
	name := strings.ToLower(key[strings.LastIndexByte(key, '.')+1:])
	keys := make([]string, 0, len(library))
	for k := range library {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best, bestScore := "", math.MaxInt
	for _, k := range keys {
		n := strings.ToLower(k[strings.LastIndexByte(k, '.')+1:])
		var score int
		switch {
		case n == name:
			score = 0
		case strings.TrimRight(n, "0123456789") == strings.TrimRight(name, "0123456789"):
			score = 1
		default:
			score = 2 + editDistance(n, name)
		}
		if score < bestScore {
			best, bestScore = k, score
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// displayName spells a library key as a kernel writes it: xpu.Sqrt,
// math.Inf, bits.OnesCount32.
func displayName(key string) string {
	if k, ok := strings.CutPrefix(key, xpuPath+"."); ok {
		return "xpu." + k
	}
	return strings.TrimPrefix(key, "math/")
}

// undefined refuses the call of a name the type checker did not resolve
// (its own error says the same; the refusal keeps it from reading as a
// call of a function value), naming the nearest function of package xpu.
func (f *fnState) undefined(fun ast.Expr) {
	c := f.c
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		c.errorFix(fun.Pos(), RuleUnsupported, "declare it, or correct the name", "%s is undefined", types.ExprString(fun))
		return
	}
	pn, _ := c.info.Uses[identOf(sel.X)].(*types.PkgName)
	if pn == nil || pn.Imported().Path() != xpuPath {
		c.errorFix(fun.Pos(), RuleUnsupported, "correct the name", "%s is undefined", types.ExprString(fun))
		return
	}
	fix := "see the kernel vocabulary in docs/language.md"
	if near := nearestName(pn.Imported().Scope(), sel.Sel.Name); near != "" {
		fix = "did you mean xpu." + near + "?"
	}
	c.errorFix(fun.Pos(), RuleUnsupported, fix, "xpu.%s is undefined: package xpu has no %s", sel.Sel.Name, sel.Sel.Name)
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// nearestName returns the exported function of scope whose name is the
// fewest edits from name (case aside), or "" when none is within half of
// name's length.
func nearestName(scope *types.Scope, name string) string {
	best, bestD := "", len(name)/2+1
	for _, n := range scope.Names() {
		if _, ok := scope.Lookup(n).(*types.Func); !ok || !token.IsExported(n) {
			continue
		}
		if d := editDistance(strings.ToLower(n), strings.ToLower(name)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}
