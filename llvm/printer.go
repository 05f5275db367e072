package llvm

// This file prints a module as LLVM 19 textual IR.

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Fprint prints m to w. It reports a malformed tree (a block without a
// terminator, an instruction after one, a value missing) as an error and
// then writes nothing.
func Fprint(w io.Writer, m *Module) error {
	s, err := Sprint(m)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, s)
	return err
}

// Sprint returns the text of m, as Fprint prints it.
func Sprint(m *Module) (string, error) {
	p := &printer{}
	p.module(m)
	if p.err != nil {
		return "", p.err
	}
	return p.b.String(), nil
}

type printer struct {
	b   strings.Builder
	err error
	fn  string
}

func (p *printer) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("llvm: function %s: "+format, append([]any{p.fn}, args...)...)
	}
}

func (p *printer) line(parts ...string) {
	for _, s := range parts {
		p.b.WriteString(s)
	}
	p.b.WriteByte('\n')
}

func (p *printer) module(m *Module) {
	if m.SourceFilename != "" {
		p.line("source_filename = ", strconv.Quote(m.SourceFilename))
	}
	if m.DataLayout != "" {
		p.line("target datalayout = ", strconv.Quote(m.DataLayout))
	}
	if m.Triple != "" {
		p.line("target triple = ", strconv.Quote(m.Triple))
	}
	for _, g := range m.Globals {
		p.b.WriteByte('\n')
		p.global(g)
	}
	for _, f := range m.Funcs {
		p.b.WriteByte('\n')
		p.function(f, len(m.AttrGroups))
	}
	for i, g := range m.AttrGroups {
		p.b.WriteByte('\n')
		s := make([]string, len(g.Attrs))
		for j, a := range g.Attrs {
			switch {
			case a.Quoted:
				s[j] = strconv.Quote(a.Key) + "=" + strconv.Quote(a.Value)
			case a.Value != "":
				s[j] = a.Key + "=" + a.Value
			default:
				s[j] = a.Key
			}
		}
		p.line("attributes #", strconv.Itoa(i), " = { ", strings.Join(s, " "), " }")
	}
}

func (p *printer) global(g *Global) {
	kw := "global"
	if g.Constant {
		kw = "constant"
	}
	link := ""
	if g.Linkage != External {
		link = string(g.Linkage) + " "
	}
	space := ""
	if g.Space != 0 {
		space = "addrspace(" + strconv.Itoa(g.Space) + ") "
	}
	if g.Init == nil {
		p.line("@", ident(g.Name), " = external ", space, kw, " ", g.T.String(), align(g.Align))
		return
	}
	p.line("@", ident(g.Name), " = ", link, space, kw, " ", typed(g.Init), align(g.Align))
}

func align(a int) string {
	if a <= 0 {
		return ""
	}
	return ", align " + strconv.Itoa(a)
}

func (p *printer) function(f *Func, groups int) {
	p.fn = f.Name
	params := make([]string, len(f.Params))
	for i, q := range f.Params {
		s := q.T.String()
		for _, a := range q.Attrs {
			s += " " + a
		}
		if len(f.Blocks) > 0 {
			s += " %" + ident(q.Name)
		}
		params[i] = s
	}
	head := f.Ret.String() + " @" + ident(f.Name) + "(" + strings.Join(params, ", ") + ")"
	if f.AttrGroup >= groups {
		p.fail("attribute group #%d not in the module", f.AttrGroup)
	}
	attrs := ""
	if f.AttrGroup >= 0 {
		attrs = " #" + strconv.Itoa(f.AttrGroup)
	}
	if len(f.Blocks) == 0 {
		p.line("declare ", head, attrs)
		return
	}
	pre := ""
	if f.Linkage != External {
		pre += string(f.Linkage) + " "
	}
	if f.Visibility != Default {
		pre += string(f.Visibility) + " "
	}
	if f.CC != "" {
		pre += f.CC + " "
	}
	p.line("define ", pre, head, attrs, " {")
	for i, b := range f.Blocks {
		if i > 0 {
			p.b.WriteByte('\n')
		}
		p.line(ident(b.Name), ":")
		if !b.Terminated() {
			p.fail("block %s has no terminator", b.Name)
		}
		for j, in := range b.Insts {
			if terminates(in) && j != len(b.Insts)-1 {
				p.fail("block %s has an instruction after its terminator", b.Name)
			}
			p.line("  ", p.inst(in))
		}
	}
	p.line("}")
}

// val spells a typed operand, failing on a missing one.
func (p *printer) val(v Value) string {
	if v == nil {
		p.fail("a missing operand")
		return "<nil>"
	}
	return typed(v)
}

// bare spells an operand without its type.
func (p *printer) bare(v Value) string {
	if v == nil {
		p.fail("a missing operand")
		return "<nil>"
	}
	return operand(v)
}

func res(l *Local) string { return "%" + ident(l.Name) + " = " }

func label(b *Block) string { return "label %" + ident(b.Name) }

func ordered(o Ordering) string {
	if o == NotAtomic {
		return ""
	}
	return " " + string(o)
}

// scoped spells a synchronization scope ("": the system's).
func scoped(scope string) string {
	if scope == "" {
		return ""
	}
	return " syncscope(" + strconv.Quote(scope) + ")"
}

func (p *printer) inst(in Inst) string {
	switch in := in.(type) {
	case *Binary:
		flags := ""
		if in.Flags.NUW {
			flags += " nuw"
		}
		if in.Flags.NSW {
			flags += " nsw"
		}
		if in.Flags.Exact {
			flags += " exact"
		}
		if in.Flags.Disjoint {
			flags += " disjoint"
		}
		return res(in.Res) + in.Op.String() + flags + " " + p.val(in.X) + ", " + p.bare(in.Y)
	case *FNeg:
		return res(in.Res) + "fneg " + p.val(in.X)
	case *ICmp:
		return res(in.Res) + "icmp " + string(in.Pred) + " " + p.val(in.X) + ", " + p.bare(in.Y)
	case *FCmp:
		return res(in.Res) + "fcmp " + string(in.Pred) + " " + p.val(in.X) + ", " + p.bare(in.Y)
	case *Select:
		return res(in.Res) + "select " + p.val(in.Cond) + ", " + p.val(in.X) + ", " + p.val(in.Y)
	case *Phi:
		arms := make([]string, len(in.In))
		for i, a := range in.In {
			arms[i] = "[ " + p.bare(a.X) + ", %" + ident(a.From.Name) + " ]"
		}
		return res(in.Res) + "phi " + in.Res.T.String() + " " + strings.Join(arms, ", ")
	case *Br:
		return "br " + label(in.Dest)
	case *CondBr:
		return "br " + p.val(in.Cond) + ", " + label(in.Then) + ", " + label(in.Else)
	case *Ret:
		if in.X == nil {
			return "ret void"
		}
		return "ret " + p.val(in.X)
	case *Unreachable:
		return "unreachable"
	case *Call:
		args := make([]string, len(in.Args))
		for i, a := range in.Args {
			args[i] = p.val(a)
		}
		s := "call " + in.RetType.String() + " @" + ident(in.Callee) + "(" + strings.Join(args, ", ") + ")"
		for _, a := range in.Attrs {
			s += " " + a
		}
		if in.Res != nil {
			s = res(in.Res) + s
		}
		return s
	case *Alloca:
		space := ""
		if in.Space != 0 {
			space = ", addrspace(" + strconv.Itoa(in.Space) + ")"
		}
		return res(in.Res) + "alloca " + in.T.String() + align(in.Align) + space
	case *Load:
		at := ""
		if in.Order != NotAtomic {
			at = "atomic "
		}
		return res(in.Res) + "load " + at + in.Res.T.String() + ", " + p.val(in.Ptr) + ordered(in.Order) + align(in.Align)
	case *Store:
		at := ""
		if in.Order != NotAtomic {
			at = "atomic "
		}
		return "store " + at + p.val(in.X) + ", " + p.val(in.Ptr) + ordered(in.Order) + align(in.Align)
	case *AtomicRMW:
		return res(in.Res) + "atomicrmw " + string(in.Op) + " " + p.val(in.Ptr) + ", " + p.val(in.X) + ordered(in.Order) + align(in.Align)
	case *CmpXchg:
		return res(in.Res) + "cmpxchg " + p.val(in.Ptr) + ", " + p.val(in.Cmp) + ", " + p.val(in.New) +
			ordered(in.Success) + ordered(in.Failure) + align(in.Align)
	case *Fence:
		return "fence" + scoped(in.Scope) + ordered(in.Order)
	case *GEP:
		ib := ""
		if in.InBounds {
			ib = "inbounds "
		}
		s := res(in.Res) + "getelementptr " + ib + in.Elem.String() + ", " + p.val(in.Base)
		for _, x := range in.Indices {
			s += ", " + p.val(x)
		}
		return s
	case *Cast:
		return res(in.Res) + string(in.Op) + " " + p.val(in.X) + " to " + in.Res.T.String()
	case *ExtractElement:
		return res(in.Res) + "extractelement " + p.val(in.Vec) + ", " + p.val(in.Index)
	case *InsertElement:
		return res(in.Res) + "insertelement " + p.val(in.Vec) + ", " + p.val(in.X) + ", " + p.val(in.Index)
	case *ShuffleVector:
		m := make([]string, len(in.Mask))
		for i, x := range in.Mask {
			if x < 0 {
				m[i] = "i32 poison"
			} else {
				m[i] = "i32 " + strconv.Itoa(x)
			}
		}
		return res(in.Res) + "shufflevector " + p.val(in.X) + ", " + p.val(in.Y) + ", <" + strconv.Itoa(len(m)) + " x i32> <" + strings.Join(m, ", ") + ">"
	case *ExtractValue:
		return res(in.Res) + "extractvalue " + p.val(in.Agg) + ", " + strconv.Itoa(in.Index)
	case *Freeze:
		return res(in.Res) + "freeze " + p.val(in.X)
	}
	p.fail("an instruction of type %T", in)
	return ""
}
