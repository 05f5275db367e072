package wgsl

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// indent is one level of indentation in printed WGSL.
const indent = "    "

// Fprint prints the node n (a *Module, Decl, Stmt, Expr or Type) as WGSL
// to w. It reports a malformed tree (a missing part, an invalid
// identifier, an operator out of place) as an error and then writes
// nothing.
func Fprint(w io.Writer, n Node) error {
	var p printer
	p.node(n)
	if p.err != nil {
		return p.err
	}
	_, err := w.Write(p.buf.Bytes())
	return err
}

// Sprint returns the WGSL text of the node n, as Fprint prints it.
func Sprint(n Node) (string, error) {
	var b strings.Builder
	if err := Fprint(&b, n); err != nil {
		return "", err
	}
	return b.String(), nil
}

type printer struct {
	buf   bytes.Buffer
	depth int
	err   error
}

func (p *printer) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("wgsl: "+format, args...)
	}
}

func (p *printer) print(s ...string) {
	for _, x := range s {
		p.buf.WriteString(x)
	}
}

func (p *printer) line(s ...string) {
	p.buf.WriteString(strings.Repeat(indent, p.depth))
	p.print(s...)
	p.buf.WriteByte('\n')
}

func (p *printer) doc(text string) {
	if text == "" {
		return
	}
	for l := range strings.SplitSeq(text, "\n") {
		p.line(strings.TrimRight("// "+l, " "))
	}
}

func (p *printer) ident(name string) string {
	if err := checkIdent(name); err != nil {
		p.fail("%v", err)
	}
	return name
}

func (p *printer) node(n Node) {
	switch n := n.(type) {
	case *Module:
		p.module(n)
	case Decl:
		p.decl(n)
	case Stmt:
		p.stmt(n)
	case Expr:
		p.print(p.expr(n))
	case Type:
		p.print(p.typ(n))
	case nil:
		p.fail("nil node")
	default:
		p.fail("unknown node %T", n)
	}
}

// ---- declarations ----

func (p *printer) module(m *Module) {
	for _, e := range m.Enable {
		if err := checkIdent(e); err != nil {
			p.fail("enable %q: %v", e, err)
		}
		p.line("enable ", e, ";")
	}
	if len(m.Enable) > 0 {
		p.buf.WriteByte('\n')
	}
	var prev Decl
	for _, d := range m.Decls {
		if prev != nil && !grouped(prev, d) {
			p.buf.WriteByte('\n')
		}
		p.decl(d)
		prev = d
	}
}

// grouped reports whether d follows prev without a blank line: runs of
// undocumented variables or constants.
func grouped(prev, d Decl) bool {
	switch d := d.(type) {
	case *GlobalVar:
		_, ok := prev.(*GlobalVar)
		return ok && d.Doc == ""
	case *Const:
		_, ok := prev.(*Const)
		return ok && d.Doc == ""
	}
	return false
}

func (p *printer) decl(d Decl) {
	switch d := d.(type) {
	case *Struct:
		p.doc(d.Doc)
		p.line("struct ", p.ident(d.Name), " {")
		p.depth++
		if len(d.Fields) == 0 {
			p.fail("struct %s has no members", d.Name)
		}
		for _, m := range d.Fields {
			if m == nil {
				p.fail("nil member in struct %s", d.Name)
				continue
			}
			p.line(p.attrs(m.Attrs), p.ident(m.Name), ": ", p.typ(m.Type), ",")
		}
		p.depth--
		p.line("}")
	case *GlobalVar:
		p.doc(d.Doc)
		space := d.Space.String()
		if d.Access != DefaultAccess {
			if d.Space != Storage {
				p.fail("access mode %s on a var<%s>", d.Access, d.Space)
			}
			space += ", " + d.Access.String()
		}
		init := ""
		if d.Init != nil {
			if d.Space != Private {
				p.fail("initializer on var<%s> %s", d.Space, d.Name)
			}
			init = " = " + p.expr(d.Init)
		}
		p.line(p.attrs(d.Attrs), "var<", space, "> ", p.ident(d.Name), ": ", p.typ(d.Type), init, ";")
	case *Const:
		p.doc(d.Doc)
		typ := ""
		if d.Type != nil {
			typ = ": " + p.typ(d.Type)
		}
		p.line("const ", p.ident(d.Name), typ, " = ", p.expr(d.Value), ";")
	case *Func:
		p.doc(d.Doc)
		if len(d.Attrs) > 0 {
			p.line(strings.TrimSuffix(p.attrs(d.Attrs), " "))
		}
		params := make([]string, len(d.Params))
		for i, a := range d.Params {
			if a == nil {
				p.fail("nil parameter of %s", d.Name)
				continue
			}
			params[i] = p.attrs(a.Attrs) + p.ident(a.Name) + ": " + p.typ(a.Type)
		}
		result := ""
		if d.Result != nil {
			result = " -> " + p.typ(d.Result)
		}
		p.print(strings.Repeat(indent, p.depth), "fn ", p.ident(d.Name), "(", strings.Join(params, ", "), ")", result, " ")
		p.block(d.Body)
		p.buf.WriteByte('\n')
	case nil:
		p.fail("nil declaration")
	default:
		p.fail("unknown declaration %T", d)
	}
}

// attrs spells attributes, each followed by a space.
func (p *printer) attrs(as []*Attr) string {
	var b strings.Builder
	for _, a := range as {
		if a == nil {
			p.fail("nil attribute")
			continue
		}
		b.WriteString("@" + p.ident(a.Name))
		if len(a.Args) > 0 {
			b.WriteString("(" + p.exprs(a.Args) + ")")
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// ---- statements ----

// block prints { ... } starting at the current position, without a
// trailing newline.
func (p *printer) block(b *Block) {
	if b == nil {
		p.fail("nil block")
		return
	}
	p.print("{\n")
	p.depth++
	for _, s := range b.Stmts {
		p.stmt(s)
	}
	p.depth--
	p.print(strings.Repeat(indent, p.depth), "}")
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Block:
		p.print(strings.Repeat(indent, p.depth))
		p.block(s)
		p.buf.WriteByte('\n')
	case *VarDecl:
		p.line("var ", p.local(s.Name, s.Type, s.Init), ";")
	case *LetDecl:
		if s.Init == nil {
			p.fail("let %s without a value", s.Name)
		}
		p.line("let ", p.local(s.Name, s.Type, s.Init), ";")
	case *Assign:
		lhs := "_"
		if s.LHS != nil {
			lhs = p.expr(s.LHS)
		}
		p.line(lhs, " = ", p.expr(s.RHS), ";")
	case *CompoundAssign:
		if s.Op > Shr {
			p.fail("compound assignment with operator %s", s.Op)
		}
		p.line(p.expr(s.LHS), " ", s.Op.String(), "= ", p.expr(s.RHS), ";")
	case *If:
		p.print(strings.Repeat(indent, p.depth))
		p.ifStmt(s)
		p.buf.WriteByte('\n')
	case *Loop:
		p.print(strings.Repeat(indent, p.depth), "loop {\n")
		p.depth++
		if s.Body == nil {
			p.fail("loop without a body")
		} else {
			for _, x := range s.Body.Stmts {
				p.stmt(x)
			}
		}
		if s.Continuing != nil || s.BreakIf != nil {
			p.line("continuing {")
			p.depth++
			if s.Continuing != nil {
				for _, x := range s.Continuing.Stmts {
					p.stmt(x)
				}
			}
			if s.BreakIf != nil {
				p.line("break if ", p.expr(s.BreakIf), ";")
			}
			p.depth--
			p.line("}")
		}
		p.depth--
		p.line("}")
	case *For:
		p.print(strings.Repeat(indent, p.depth), "for (", p.forClause(s.Init, "init"), "; ")
		if s.Cond != nil {
			p.print(p.expr(s.Cond))
		}
		p.print("; ", p.forClause(s.Update, "update"), ") ")
		if s.Body == nil {
			p.fail("for without a body")
			s.Body = &Block{}
		}
		p.block(s.Body)
		p.buf.WriteByte('\n')
	case *Break:
		p.line("break;")
	case *Continue:
		p.line("continue;")
	case *Return:
		if s.Value == nil {
			p.line("return;")
		} else {
			p.line("return ", p.expr(s.Value), ";")
		}
	case *CallStmt:
		if s.Call == nil {
			p.fail("call statement without a call")
			return
		}
		p.line(p.expr(s.Call), ";")
	case nil:
		p.fail("nil statement")
	default:
		p.fail("unknown statement %T", s)
	}
}

// forClause prints the init or update statement of a for, without its
// semicolon.
func (p *printer) forClause(s Stmt, which string) string {
	switch s := s.(type) {
	case nil:
		return ""
	case *VarDecl:
		if which == "init" {
			return "var " + p.local(s.Name, s.Type, s.Init)
		}
	case *LetDecl:
		if which == "init" && s.Init != nil {
			return "let " + p.local(s.Name, s.Type, s.Init)
		}
	case *Assign:
		if s.LHS != nil {
			return p.expr(s.LHS) + " = " + p.expr(s.RHS)
		}
	case *CompoundAssign:
		if which == "update" && s.Op <= Shr {
			return p.expr(s.LHS) + " " + s.Op.String() + "= " + p.expr(s.RHS)
		}
	}
	p.fail("for %s statement %T", which, s)
	return ""
}

func (p *printer) local(name string, t Type, init Expr) string {
	s := p.ident(name)
	if t != nil {
		s += ": " + p.typ(t)
	}
	if init != nil {
		s += " = " + p.expr(init)
	} else if t == nil {
		p.fail("declaration of %s has neither type nor value", name)
	}
	return s
}

func (p *printer) ifStmt(s *If) {
	p.print("if ", p.expr(s.Cond), " ")
	p.block(s.Then)
	switch e := s.Else.(type) {
	case nil:
	case *If:
		p.print(" else ")
		p.ifStmt(e)
	case *Block:
		p.print(" else ")
		p.block(e)
	default:
		p.fail("else branch is a %T, not a block or an if", e)
	}
}

// ---- expressions ----

func (p *printer) exprs(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = p.expr(e)
		if opensTemplate(es, i) {
			s[i] = "(" + s[i] + ")"
		}
	}
	return strings.Join(s, ", ")
}

// opensTemplate reports whether the argument es[i] of a call would start a
// template list: WGSL reads "f(a < b, c > d)" as f applied to a<b, c>
// followed by d, since an identifier before "<" and a ">" at the same
// nesting further on make a template list. It is a comparison with "<"
// followed by an argument whose operator begins with ">".
func opensTemplate(es []Expr, i int) bool {
	if b, ok := es[i].(*Binary); !ok || b.Op != Lt {
		return false
	}
	for _, e := range es[i+1:] {
		if b, ok := e.(*Binary); ok && (b.Op == Gt || b.Op == Ge || b.Op == Shr) {
			return true
		}
	}
	return false
}

func (p *printer) expr(e Expr) string {
	switch e := e.(type) {
	case *Lit:
		s, err := LitText(e)
		if err != nil {
			p.fail("%v", err)
		}
		return s
	case *AbstractInt:
		return fmt.Sprint(e.Value)
	case *Ident:
		return p.ident(e.Name)
	case *Unary:
		if e.Op > Deref {
			p.fail("unknown unary operator %d", e.Op)
			return ""
		}
		return e.Op.String() + p.operand(e.X, unaryOperand)
	case *Binary:
		if e.Op > LOr {
			p.fail("unknown binary operator %d", e.Op)
			return ""
		}
		return p.operand(e.X, binaryOperand) + " " + e.Op.String() + " " + p.operand(e.Y, binaryOperand)
	case *Call:
		return p.ident(e.Fn) + "(" + p.exprs(e.Args) + ")"
	case *Construct:
		return p.typ(e.Type) + "(" + p.exprs(e.Args) + ")"
	case *Bitcast:
		return "bitcast<" + p.typ(e.Type) + ">(" + p.expr(e.X) + ")"
	case *Index:
		return p.operand(e.X, postfixBase) + "[" + p.expr(e.Index) + "]"
	case *Member:
		return p.operand(e.X, postfixBase) + "." + p.ident(e.Name)
	case nil:
		p.fail("nil expression")
	default:
		p.fail("unknown expression %T", e)
	}
	return ""
}

// operandPlace is where an expression appears inside another.
type operandPlace int

const (
	binaryOperand operandPlace = iota // X or Y of a Binary
	unaryOperand                      // X of a Unary
	postfixBase                       // X of an Index or Member
)

// operand prints e parenthesized when its place needs it: every Binary
// inside another expression (so no precedence or mixing rule of WGSL
// matters), and prefix forms under a prefix or postfix operator.
func (p *printer) operand(e Expr, place operandPlace) string {
	s := p.expr(e)
	paren := false
	switch e := e.(type) {
	case *Binary:
		paren = true
	case *Unary:
		paren = place != binaryOperand && !(place == unaryOperand && e.Op == Deref)
	case *Lit:
		paren = place != binaryOperand && strings.HasPrefix(s, "-")
	}
	if paren {
		return "(" + s + ")"
	}
	return s
}

// ---- types ----

func (p *printer) typ(t Type) string {
	switch t := t.(type) {
	case *Scalar:
		if t.Kind > F32 || t.Kind < Bool {
			p.fail("unknown scalar kind %d", t.Kind)
			return ""
		}
		return t.Kind.String()
	case *Vec:
		if t.N < 2 || t.N > 4 {
			p.fail("vector of %d components", t.N)
		}
		return fmt.Sprintf("vec%d<%s>", t.N, p.typ(t.Elem))
	case *Array:
		if t.Len < 0 {
			p.fail("array of negative length %d", t.Len)
		}
		if t.Len == 0 {
			return "array<" + p.typ(t.Elem) + ">"
		}
		return fmt.Sprintf("array<%s, %d>", p.typ(t.Elem), t.Len)
	case *Atomic:
		if s, ok := t.Elem.(*Scalar); !ok || (s.Kind != I32 && s.Kind != U32) {
			p.fail("atomic of a type other than i32 or u32")
		}
		return "atomic<" + p.typ(t.Elem) + ">"
	case *Named:
		return p.ident(t.Name)
	case nil:
		p.fail("nil type")
	default:
		p.fail("unknown type %T", t)
	}
	return ""
}
