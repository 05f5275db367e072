package frontend

// This file parses the //xpu: directives of a kernel's doc comment.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// maxBlock bounds the work-items of one block, as devices do.
const maxBlock = 1024

// directives is what a kernel's doc comment says.
type directives struct {
	pos   token.Pos // of the //xpu:kernel line
	block [3]uint32
	wave  uint32
	// blockExpr and waveExpr are the dimensions of block= and the width
	// of wave= written as expressions over the comptime parameter or
	// package constants; each template member evaluates them to its own
	// block and width (shape).
	blockExpr [3]*shapeExpr
	waveExpr  *shapeExpr
	minLen    []minLenDirective
	instances []*instanceDirective
	requires  []*requiresDirective
}

// minLenDirective is one len(buffer)=a*b argument of //xpu:kernel: the
// buffer holds at least as many elements as the product of the scalars
// named by factors (one name for len(buffer)=n).
type minLenDirective struct {
	pos     token.Pos
	buffer  string
	factors []string
}

// instanceDirective is one //xpu:instance Name Type{Field: value, ...},
// Name Func[T, ...] or Name Func[T, ...] Type{Field: value, ...}.
type instanceDirective struct {
	pos  token.Pos // of the name
	name string
	lit  *ast.CompositeLit // nil when the line names type arguments only
	text string            // the literal's source
	base token.Pos         // position in the file of offset 0 of lit's text
	// fun and targs are the generic function and its type arguments
	// of Func[T, ...]; targsBase is the position of offset 0 of the
	// text they were parsed from.
	fun       *ast.Ident
	targs     []ast.Expr
	targsBase token.Pos
}

// shapeExpr is a block dimension or wave width of //xpu:kernel written
// as a constant expression rather than an integer.
type shapeExpr struct {
	text string
	expr ast.Expr
	base token.Pos // position in the file of offset 0 of text
}

// parseShapeExpr parses s, at base, as a shape expression; nil when s is
// no Go expression.
func parseShapeExpr(s string, base token.Pos) *shapeExpr {
	if s == "" {
		return nil
	}
	e, err := parser.ParseExpr(s)
	if err != nil {
		return nil
	}
	if _, isLit := e.(*ast.BasicLit); isLit {
		// A literal that is no positive integer (0, 1.5, "x") stays an
		// error of the directive rather than of each member.
		return nil
	}
	return &shapeExpr{text: s, expr: e, base: base}
}

// requiresDirective is one //xpu:requires clause.
type requiresDirective struct {
	text string
	expr ast.Expr
	base token.Pos // position in the file of offset 0 of text
}

// at maps a position inside an expression parsed from directive text
// starting at base back to the file.
func at(base, p token.Pos) token.Pos {
	if !p.IsValid() {
		return base
	}
	return base + p - 1
}

// hasDirective reports whether doc carries an //xpu:kernel line.
func hasDirective(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, cm := range doc.List {
		if verb, _ := splitDirective(cm.Text); verb == "kernel" {
			return true
		}
	}
	return false
}

// splitDirective splits "//xpu:verb rest" into verb and rest; verb is ""
// for a line that is no directive.
func splitDirective(text string) (verb, rest string) {
	s, ok := strings.CutPrefix(text, "//xpu:")
	if !ok {
		return "", ""
	}
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// directives parses the //xpu: lines of a kernel's doc comment.
func (c *checker) directives(doc *ast.CommentGroup) (*directives, bool) {
	d := &directives{}
	ok := true
	for _, cm := range doc.List {
		verb, rest := splitDirective(cm.Text)
		restPos := cm.Slash + token.Pos(len(cm.Text)-len(rest))
		switch verb {
		case "":
		case "kernel":
			if d.pos.IsValid() {
				c.errorf(cm.Slash, RuleDirective, "second //xpu:kernel directive")
				ok = false
				continue
			}
			d.pos = cm.Slash
			ok = c.kernelDirective(d, rest, restPos) && ok
		case "instance":
			in := c.instanceDirective(rest, restPos)
			if in == nil {
				ok = false
				continue
			}
			d.instances = append(d.instances, in)
		case "requires":
			r := c.requiresDirective(rest, restPos)
			if r == nil {
				ok = false
				continue
			}
			d.requires = append(d.requires, r)
		default:
			c.errorf(cm.Slash, RuleDirective, "unknown directive //xpu:%s", verb)
			ok = false
		}
	}
	return d, ok
}

// kernelDirective parses the arguments of //xpu:kernel.
func (c *checker) kernelDirective(d *directives, rest string, base token.Pos) bool {
	ok := true
	seenBlock := false
	for _, f := range fieldsAt(rest) {
		p := base + token.Pos(f.off)
		key, val, found := strings.Cut(f.text, "=")
		switch {
		case !found:
			c.errorf(p, RuleDirective, "malformed //xpu:kernel argument %q, want key=value", f.text)
			ok = false
		case key == "block":
			parts := strings.Split(val, ",")
			if len(parts) > 3 {
				c.errorf(p, RuleDirective, "block has %d dimensions, at most 3", len(parts))
				ok = false
				continue
			}
			d.block = [3]uint32{1, 1, 1}
			n := uint64(1)
			off := len(key) + 1
			for i, s := range parts {
				v, err := strconv.ParseUint(s, 10, 32)
				if err != nil {
					if e := parseShapeExpr(s, p+token.Pos(off)); e != nil {
						// Evaluated per member; the bound on the
						// work-items is checked then.
						d.blockExpr[i] = e
						off += len(s) + 1
						continue
					}
				}
				off += len(s) + 1
				if err != nil || v == 0 {
					c.errorf(p, RuleDirective, "block size %q is not a positive integer", s)
					ok = false
					v = 1
				}
				d.block[i] = uint32(v)
				n *= v
			}
			if n > maxBlock {
				c.errorf(p, RuleDirective, "block of %d work-items exceeds %d", n, maxBlock)
				ok = false
			}
			seenBlock = true
		case key == "wave":
			v, err := strconv.ParseUint(val, 10, 32)
			if err != nil {
				if e := parseShapeExpr(val, p+token.Pos(len(key)+1)); e != nil {
					d.waveExpr = e
					continue
				}
			}
			if err != nil || v < 4 || v > 64 || v&(v-1) != 0 {
				c.errorf(p, RuleDirective, "wave width %q is not a power of two from 4 to 64", val)
				ok = false
				continue
			}
			d.wave = uint32(v)
		case strings.HasPrefix(key, "len(") && strings.HasSuffix(key, ")"):
			buf := key[len("len(") : len(key)-1]
			factors := strings.Split(val, "*")
			if !token.IsIdentifier(buf) || slices.ContainsFunc(factors, func(s string) bool { return !token.IsIdentifier(s) }) {
				c.errorf(p, RuleDirective, "length bound %q is not len(buffer)=n or a product of scalar names, len(buffer)=m*k", f.text)
				ok = false
				continue
			}
			d.minLen = append(d.minLen, minLenDirective{pos: p, buffer: buf, factors: factors})
		default:
			c.errorf(p, RuleDirective, "unknown //xpu:kernel argument %q", key)
			ok = false
		}
	}
	if !seenBlock && ok {
		c.errorf(d.pos, RuleDirective, "//xpu:kernel needs block=X[,Y[,Z]]")
		ok = false
	}
	return ok
}

// instanceDirective parses "Name Type{Field: value, ...}".
func (c *checker) instanceDirective(rest string, base token.Pos) *instanceDirective {
	trimmed := strings.TrimLeft(rest, " \t")
	namePos := base + token.Pos(len(rest)-len(trimmed))
	name, lit, _ := strings.Cut(trimmed, " ")
	if !token.IsIdentifier(name) || !token.IsExported(name) {
		c.errorf(namePos, RuleDirective, "instance name %q is not an exported identifier", name)
		return nil
	}
	litText := strings.TrimLeft(lit, " \t")
	litBase := namePos + token.Pos(len(trimmed)-len(litText))
	in := &instanceDirective{pos: namePos, name: name}
	if inst, rest, ok := cutInstantiation(litText); ok {
		e, err := parser.ParseExpr(inst)
		in.fun, in.targs = instantiation(e)
		if err != nil || in.fun == nil {
			c.errorf(litBase, RuleDirective, "instance %s: want an instantiation Func[T, ...], got %q", name, inst)
			return nil
		}
		in.targsBase = litBase
		litText = strings.TrimLeft(rest, " \t")
		litBase += token.Pos(len(inst) + len(rest) - len(litText))
		if litText == "" {
			return in
		}
	}
	e, err := parser.ParseExpr(litText)
	cl, isLit := e.(*ast.CompositeLit)
	if err != nil || !isLit || cl.Type == nil {
		c.errorf(litBase, RuleDirective, "instance %s: want a composite literal Type{Field: value, ...} or an instantiation Func[T, ...], got %q", name, litText)
		return nil
	}
	in.lit, in.text, in.base = cl, litText, litBase
	return in
}

// cutInstantiation splits "Func[T, ...] rest" after the bracket that
// closes the type arguments; ok is false when s does not start with an
// identifier and a bracket.
func cutInstantiation(s string) (inst, rest string, ok bool) {
	i := strings.IndexByte(s, '[')
	if i <= 0 || !token.IsIdentifier(s[:i]) {
		return "", "", false
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return s[:j+1], s[j+1:], true
			}
		}
	}
	return s, "", true
}

// instantiation returns the function and type arguments of Func[T, ...].
func instantiation(e ast.Expr) (*ast.Ident, []ast.Expr) {
	switch e := e.(type) {
	case *ast.IndexExpr:
		id, _ := e.X.(*ast.Ident)
		return id, []ast.Expr{e.Index}
	case *ast.IndexListExpr:
		id, _ := e.X.(*ast.Ident)
		return id, e.Indices
	}
	return nil, nil
}

// requiresDirective parses a requires clause.
func (c *checker) requiresDirective(rest string, base token.Pos) *requiresDirective {
	text := strings.TrimSpace(rest)
	textBase := base + token.Pos(len(rest)-len(strings.TrimLeft(rest, " \t")))
	e, err := parser.ParseExpr(text)
	if err != nil || text == "" {
		c.errorf(textBase, RuleDirective, "requires clause %q is not an expression", text)
		return nil
	}
	return &requiresDirective{text: text, expr: e, base: textBase}
}

// field is a blank-separated word of a directive and its offset.
type field struct {
	text string
	off  int
}

// fieldsAt splits s at blanks, keeping offsets.
func fieldsAt(s string) []field {
	var out []field
	start := -1
	for i := 0; i <= len(s); i++ {
		blank := i == len(s) || s[i] == ' ' || s[i] == '\t'
		switch {
		case blank && start >= 0:
			out = append(out, field{s[start:i], start})
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	return out
}
