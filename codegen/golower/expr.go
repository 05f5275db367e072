package golower

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// This file writes expressions. Every operator is parenthesized; integer
// constant expressions are folded here with the IR's wrapping rules so
// that the Go compiler never sees a constant that overflows.

// expr returns the Go spelling of e as a value.
func (g *gen) expr(e ir.Expr) string {
	if c, ok := foldIn(e, &g.size); ok {
		return g.constant(c)
	}
	switch e := e.(type) {
	case *ir.VarRef:
		return varName(e.Var)
	case *ir.ScalarRef:
		return "p_" + e.Param.Name
	case *ir.BufferRef:
		return "p_" + e.Param.Name
	case *ir.SharedRef:
		return "s_" + e.Shared.Name
	case *ir.Index, *ir.FieldOf:
		if atomicElement(e) {
			return g.call("xpu", "AtomicLoad") + "(&" + g.place(e) + ")"
		}
		return g.place(e)
	case *ir.Unary:
		return "(" + e.Op.String() + g.expr(e.X) + ")"
	case *ir.Binary:
		y := g.expr(e.Y)
		if g.faultsWhenRun(e) {
			y = atRunTime(e.Y.Type(), y)
		}
		return "(" + g.expr(e.X) + " " + e.Op.String() + " " + y + ")"
	case *ir.Convert:
		return e.T.String() + "(" + g.expr(e.X) + ")"
	case *ir.Bitcast:
		return g.bitcast(e)
	case *ir.CallBuiltin:
		return g.builtin(e)
	case *ir.Call:
		args := []string{"lx", "ly", "lz"}
		for _, a := range e.Args {
			args = append(args, g.expr(a))
		}
		return "f_" + e.Func.Name + "(" + strings.Join(args, ", ") + ")"
	case *ir.Len:
		return "uint32(len(p_" + e.Buffer.Name + "))"
	case *ir.Atomic:
		return g.atomic(e)
	}
	g.fail(g.refuse(g.k.Pos, "an expression of type %T", e))
	return "0"
}

// place returns the Go spelling of an addressable element: a variable,
// an element of a buffer, shared or private array, or a field of one.
func (g *gen) place(e ir.Expr) string {
	switch e := e.(type) {
	case *ir.Index:
		p := g.placeOrValue(e.X) + "[" + g.elemIndex(e) + "]"
		if w, ok := g.window[p]; ok {
			return w
		}
		return p
	case *ir.FieldOf:
		s, ok := e.X.Type().(*ir.Struct)
		if !ok || e.Field < 0 || e.Field >= len(s.Fields) {
			g.fail(g.refuse(g.k.Pos, "a field of a non-struct value"))
			return "0"
		}
		return g.placeOrValue(e.X) + "." + s.Fields[e.Field].Name
	}
	return g.expr(e)
}

// elemIndex spells the index of e, made a run-time one when it is a
// constant outside the array (or a negative one, or one past MaxInt32,
// into a buffer): Go refuses such a constant index when it compiles the
// lowering, where the kernel, which indexes a slice with a thread query,
// panics only if the access runs. In-range constants stay constants.
func (g *gen) elemIndex(e *ir.Index) string {
	i := g.expr(e.Index)
	c, ok := foldIn(e.Index, &g.size)
	if !ok {
		return i
	}
	v := int64(c.Bits)
	if ir.IsKind(c.T, ir.I32) {
		v = int64(int32(c.Bits))
	}
	n := int64(math.MaxInt32) + 1 // a buffer's: int may have 32 bits
	if l, ok := ir.StaticLen(e.X); ok {
		n = int64(l)
	}
	if 0 <= v && v < n {
		return i
	}
	return atRunTime(c.T, i)
}

// faultsWhenRun reports whether e's right operand folds to a constant on
// which e panics in Go: an integer division by zero, or a shift by a
// negative count. Go refuses such a constant when it compiles the
// lowering, where the kernel (a thread query in the operand, which the
// lowering spells as a constant) panics only if e runs.
func (g *gen) faultsWhenRun(e *ir.Binary) bool {
	c, ok := foldIn(e.Y, &g.size)
	if !ok {
		return false
	}
	switch e.Op {
	case ir.OpDiv, ir.OpRem:
		return (ir.IsInteger(e.T) || ir.IsWide64(e.T)) && c.Bits == 0 && c.Hi == 0
	case ir.OpShl, ir.OpShr:
		return ir.IsKind(e.Y.Type(), ir.I32) && int32(c.Bits) < 0 || ir.IsKind(e.Y.Type(), ir.I64) && int64(c.Bits64()) < 0
	}
	return false
}

// atRunTime spells the constant operand x, of type t, so that Go computes
// it when the code runs instead of checking it when it compiles.
func atRunTime(t ir.Type, x string) string {
	return "func() " + t.String() + " { return " + x + " }()"
}

// placeOrValue spells the operand of an index or field selection: a
// place when it is one (so that stores reach memory), else a value.
func (g *gen) placeOrValue(e ir.Expr) string {
	switch e.(type) {
	case *ir.Index, *ir.FieldOf:
		return g.place(e)
	}
	return g.expr(e)
}

// atomicElement reports whether e is a scalar element of a buffer that
// some work-item touches atomically: blocks run concurrently, so every
// access to it must be atomic too.
func atomicElement(e ir.Expr) bool {
	if _, ok := e.Type().(*ir.Basic); !ok {
		return false
	}
	for {
		switch x := e.(type) {
		case *ir.Index:
			e = x.X
		case *ir.FieldOf:
			e = x.X
		case *ir.BufferRef:
			return x.Param.Access == schema.AccessAtomic
		default:
			return false
		}
	}
}

func (g *gen) bitcast(e *ir.Bitcast) string {
	from, _ := e.X.Type().(*ir.Basic)
	x := g.expr(e.X)
	switch {
	case from == nil:
		g.fail(g.refuse(g.k.Pos, "a bitcast of a non-scalar"))
		return "0"
	case e.T.Kind == ir.F32 && from.Kind == ir.F32:
		return x
	case e.T.Kind == ir.F32:
		return g.call("xpu", "Float32FromBits") + "(uint32(" + x + "))"
	case from.Kind == ir.F32:
		return e.T.String() + "(" + g.call("xpu", "Float32Bits") + "(" + x + "))"
	}
	return e.T.String() + "(" + x + ")"
}

func (g *gen) builtin(e *ir.CallBuiltin) string {
	bx, by := g.size[0], g.size[1]
	switch e.Fn {
	case ir.GlobalX:
		return "(gx0 + lx)"
	case ir.GlobalY:
		return "(gy0 + ly)"
	case ir.GlobalZ:
		return "(gz0 + lz)"
	case ir.LocalX:
		return "lx"
	case ir.LocalY:
		return "ly"
	case ir.LocalZ:
		return "lz"
	case ir.GroupX:
		return "b.Group.X"
	case ir.GroupY:
		return "b.Group.Y"
	case ir.GroupZ:
		return "b.Group.Z"
	case ir.NumGroupsX:
		return "b.Groups.X"
	case ir.NumGroupsY:
		return "b.Groups.Y"
	case ir.NumGroupsZ:
		return "b.Groups.Z"
	case ir.BlockX, ir.BlockY, ir.BlockZ:
		return fmt.Sprintf("uint32(%d)", g.size[e.Fn-ir.BlockX])
	case ir.LocalIndex:
		return g.localIndex(bx, by)
	case ir.WaveWidth:
		return "b.Wave"
	case ir.LaneIndex:
		return "(" + g.localIndex(bx, by) + " % b.Wave)"
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.expr(a)
	}
	pkg := "xpu"
	if e.Fn.IsBits() {
		pkg = "gpuimpl"
	}
	return g.call(pkg, e.Fn.String()) + "(" + strings.Join(args, ", ") + ")"
}

// localIndex spells LocalIndex: li inside a work-item loop, computed from
// the coordinates inside a device function.
func (g *gen) localIndex(bx, by uint32) string {
	if !g.inFunc {
		return "li"
	}
	return fmt.Sprintf("(lx + %d*ly + %d*lz)", bx, bx*by)
}

var atomicFuncs = [...]string{
	ir.AtomicAdd: "AtomicAdd", ir.AtomicSub: "AtomicSub", ir.AtomicMin: "AtomicMin",
	ir.AtomicMax: "AtomicMax", ir.AtomicAnd: "AtomicAnd", ir.AtomicOr: "AtomicOr",
	ir.AtomicXor: "AtomicXor", ir.AtomicExchange: "AtomicExchange",
	ir.AtomicCompareExchange: "AtomicCompareExchange", ir.AtomicAddFloat32: "AtomicAddFloat32",
	ir.AtomicLoad: "AtomicLoad", ir.AtomicStore: "AtomicStore",
}

func (g *gen) atomic(e *ir.Atomic) string {
	if int(e.Op) >= len(atomicFuncs) {
		g.fail(g.refuse(g.k.Pos, "the atomic %v", e.Op))
		return "0"
	}
	args := []string{"&" + g.place(e.Ptr)}
	for _, a := range e.Args {
		args = append(args, g.expr(a))
	}
	return g.call("xpu", atomicFuncs[e.Op]) + "(" + strings.Join(args, ", ") + ")"
}

// constant spells c as a typed Go constant, or as a call where Go
// constants cannot say it (negative zero, infinities, NaNs).
func (g *gen) constant(c *ir.Const) string {
	switch c.T.Kind {
	case ir.Bool:
		return strconv.FormatBool(c.Bits != 0)
	case ir.I32:
		return "int32(" + strconv.Itoa(int(int32(c.Bits))) + ")"
	case ir.U32:
		return "uint32(" + strconv.FormatUint(uint64(c.Bits), 10) + ")"
	case ir.I64:
		return "int64(" + strconv.FormatInt(int64(c.Bits64()), 10) + ")"
	case ir.U64:
		return "uint64(" + strconv.FormatUint(c.Bits64(), 10) + ")"
	}
	if c.T.Narrow() { // the bits are the value extended to 32
		return c.T.String() + "(" + strconv.Itoa(int(int32(c.Bits))) + ")"
	}
	f := math.Float32frombits(c.Bits)
	if math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) || f == 0 && math.Signbit(float64(f)) {
		return fmt.Sprintf("%s(0x%08x)", g.call("xpu", "Float32FromBits"), c.Bits)
	}
	return "float32(" + strconv.FormatFloat(float64(f), 'g', -1, 32) + ")"
}

// zero spells the zero value of t.
func zero(t ir.Type) string {
	if b, ok := t.(*ir.Basic); ok {
		if b.Kind == ir.Bool {
			return "false"
		}
		return "0"
	}
	return typeName(t) + "{}"
}

// typeName spells t inside the kernel's package.
func typeName(t ir.Type) string {
	switch t := t.(type) {
	case *ir.Struct:
		if i := strings.LastIndexByte(t.Name, '.'); i >= 0 {
			return t.Name[i+1:]
		}
		return t.Name
	case *ir.Array:
		return fmt.Sprintf("[%d]%s", t.Len, typeName(t.Elem))
	}
	return t.String()
}

func varName(v *ir.Var) string { return "v_" + v.Name }
