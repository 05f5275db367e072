package frontend

import (
	"fmt"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// dump prints a kernel's IR as indented pseudo-Go, for tests.
func dump(k *ir.Kernel) string {
	var b strings.Builder
	for _, f := range k.Funcs {
		fmt.Fprintf(&b, "func %s(", f.Name)
		for i, p := range f.Params {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %v", p.Name, p.Type)
		}
		fmt.Fprintf(&b, ") %v barrier=%v\n", f.Result, f.Barrier)
		dumpBlock(&b, f.Body, 1)
	}
	for _, s := range k.Shared {
		fmt.Fprintf(&b, "shared %s [%d]%v %v\n", s.Name, s.Len, s.Elem, s.Access)
	}
	fmt.Fprintf(&b, "kernel %s\n", k.Name)
	dumpBlock(&b, k.Body, 1)
	return b.String()
}

func dumpBlock(b *strings.Builder, blk *ir.Block, depth int) {
	if blk == nil {
		return
	}
	ind := strings.Repeat("\t", depth)
	for _, s := range blk.Stmts {
		switch s := s.(type) {
		case *ir.Block:
			fmt.Fprintf(b, "%s{\n", ind)
			dumpBlock(b, s, depth+1)
			fmt.Fprintf(b, "%s}\n", ind)
		case *ir.Decl:
			fmt.Fprintf(b, "%svar %s %v = %s\n", ind, s.Var.Name, s.Var.Type, dumpExpr(s.Init))
		case *ir.Assign:
			fmt.Fprintf(b, "%s%s = %s\n", ind, dumpExpr(s.Dst), dumpExpr(s.Value))
		case *ir.If:
			fmt.Fprintf(b, "%sif %s {\n", ind, dumpExpr(s.Cond))
			dumpBlock(b, s.Then, depth+1)
			if s.Else != nil {
				fmt.Fprintf(b, "%s} else {\n", ind)
				dumpBlock(b, s.Else, depth+1)
			}
			fmt.Fprintf(b, "%s}\n", ind)
		case *ir.Loop:
			fmt.Fprintf(b, "%sfor %s {\n", ind, dumpExpr(s.Cond))
			dumpBlock(b, s.Body, depth+1)
			if s.Post != nil {
				fmt.Fprintf(b, "%spost:\n", ind)
				dumpBlock(b, s.Post, depth+1)
			}
			fmt.Fprintf(b, "%s}\n", ind)
		case *ir.Break:
			fmt.Fprintf(b, "%sbreak\n", ind)
		case *ir.Continue:
			fmt.Fprintf(b, "%scontinue\n", ind)
		case *ir.Return:
			fmt.Fprintf(b, "%sreturn %s\n", ind, dumpExpr(s.Value))
		case *ir.Barrier:
			fmt.Fprintf(b, "%sbarrier\n", ind)
		case *ir.ExprStmt:
			fmt.Fprintf(b, "%s%s\n", ind, dumpExpr(s.X))
		}
	}
}

func dumpExpr(x ir.Expr) string {
	switch e := x.(type) {
	case nil:
		return ""
	case *ir.Const:
		if e.T.Kind == ir.F32 {
			return fmt.Sprintf("f32(%#x)", e.Bits)
		}
		if e.T.Kind == ir.I32 {
			return fmt.Sprintf("%d", int32(e.Bits))
		}
		return fmt.Sprintf("%v(%d)", e.T, e.Bits)
	case *ir.VarRef:
		return e.Var.Name
	case *ir.ScalarRef:
		return "$" + e.Param.Name
	case *ir.BufferRef:
		return "@" + e.Param.Name
	case *ir.SharedRef:
		return "&" + e.Shared.Name
	case *ir.Index:
		return dumpExpr(e.X) + "[" + dumpExpr(e.Index) + "]"
	case *ir.FieldOf:
		return fmt.Sprintf("%s.%d", dumpExpr(e.X), e.Field)
	case *ir.Unary:
		return fmt.Sprintf("(%v%s)", e.Op, dumpExpr(e.X))
	case *ir.Binary:
		return fmt.Sprintf("(%s %v %s)", dumpExpr(e.X), e.Op, dumpExpr(e.Y))
	case *ir.Convert:
		return fmt.Sprintf("%v(%s)", e.T, dumpExpr(e.X))
	case *ir.Bitcast:
		return fmt.Sprintf("bitcast<%v>(%s)", e.T, dumpExpr(e.X))
	case *ir.CallBuiltin:
		return fmt.Sprintf("%v(%s)", e.Fn, dumpArgs(e.Args))
	case *ir.Call:
		return fmt.Sprintf("%s(%s)", e.Func.Name, dumpArgs(e.Args))
	case *ir.Len:
		return "len(@" + e.Buffer.Name + ")"
	case *ir.Atomic:
		return fmt.Sprintf("%v(%s, %s)", e.Op, dumpExpr(e.Ptr), dumpArgs(e.Args))
	}
	return fmt.Sprintf("?%T", x)
}

func dumpArgs(xs []ir.Expr) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = dumpExpr(x)
	}
	return strings.Join(s, ", ")
}
