package golower

// This file tidies the written function: it drops the declarations that
// the lowering writes for every path (pure) where nothing in their block
// names the variable, and the blank assignments (_ = x) that let Go accept
// a variable some paths leave unread where the block certainly reads it.
// It errs one way only: whatever it cannot decide (a name declared again
// in the block, a name among a function literal's parameters, a place it
// cannot read as a use) stays as written.

import (
	"regexp"
	"strings"
)

// pureMark ends a line written by pure.
const pureMark = "\x01"

// blankLine matches a blank assignment of identifiers: _, _ = a, b.
var blankLine = regexp.MustCompile(`^(\s*)_(?:\s*,\s*_)*\s*=\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*$`)

// tidyLines is a written function, line by line.
type tidyLines struct {
	text   []string
	code   []string   // each line without strings and comments
	depth  []int      // block depth before the line
	low    []int      // the least depth within the line (its closing braces come first)
	pure   []bool     // written by pure
	blank  []bool     // a blank assignment
	blanks [][]string // the names it still holds
	indent []string   // a blank assignment's indentation
	gone   []bool
}

// tidy returns src, the written function, without the declarations and
// blank assignments it does not need.
func tidy(src string) string {
	lines := strings.Split(src, "\n")
	n := len(lines)
	t := &tidyLines{text: lines, code: make([]string, n), depth: make([]int, n), low: make([]int, n),
		pure: make([]bool, n), blank: make([]bool, n), blanks: make([][]string, n), indent: make([]string, n), gone: make([]bool, n)}
	for i, d := 0, 0; i < n; i++ {
		if s, ok := strings.CutSuffix(lines[i], pureMark); ok {
			lines[i], t.pure[i] = s, true
		}
		if m := blankLine.FindStringSubmatch(lines[i]); m != nil {
			t.blank[i], t.indent[i] = true, m[1]
			for _, name := range strings.Split(m[2], ",") {
				t.blanks[i] = append(t.blanks[i], strings.TrimSpace(name))
			}
		}
		t.code[i] = codeOf(lines[i])
		t.depth[i], t.low[i] = d, d
		for _, c := range t.code[i] {
			switch c {
			case '{':
				d++
			case '}':
				d--
				t.low[i] = min(t.low[i], d)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range n {
			if t.pure[i] && !t.gone[i] && !t.named(i, declName(t.code[i])) {
				t.drop(i, declName(t.code[i]))
				changed = true
			}
		}
	}
	for i := range n {
		if !t.blank[i] || t.gone[i] {
			continue
		}
		var keep []string
		for _, name := range t.blanks[i] {
			if !t.read(i, name) {
				keep = append(keep, name)
			}
		}
		t.blanks[i] = keep
	}
	out := lines[:0:0]
	for i, line := range lines {
		switch {
		case t.gone[i]:
		case !t.blank[i]:
			out = append(out, line)
		case len(t.blanks[i]) > 0:
			b := t.blanks[i]
			out = append(out, t.indent[i]+strings.Repeat("_, ", len(b)-1)+"_ = "+strings.Join(b, ", "))
		}
	}
	return strings.Join(out, "\n")
}

// scope calls visit with each line after the declaration at i to the end
// of i's block, and the text of it that may refer to that declaration:
// the end of i's block, less the rest of any inner block that certainly
// declares name again (name := e there: visit sees only e); with shadows,
// less too the regions where a line may declare name again (a for, if or
// function literal header declares it for its own block and any else
// blocks after it), which only a question that errs to "no" may skip.
func (t *tidyLines) scope(i int, name string, shadows bool, visit func(j int, text string)) {
	d, n := t.depth[i], len(t.code)
	for j := i + 1; j < n && t.low[j] >= d; j++ {
		if t.gone[j] {
			continue
		}
		if e := t.depth[j]; e > d && t.redeclares(j, name) {
			_, _, rhs, _ := assignment(t.code[j])
			visit(j, rhs)
			for j+1 < n && t.low[j+1] >= e {
				j++
			}
			continue
		}
		if !shadows || !t.declares(j, name) {
			visit(j, t.code[j])
			continue
		}
		if !strings.HasSuffix(strings.TrimSpace(t.code[j]), "{") {
			if t.depth[j] == d {
				return
			}
			for e := t.depth[j]; j+1 < n && t.low[j+1] >= e; {
				j++
			}
			continue
		}
		for e := t.depth[j] + 1; ; {
			for j+1 < n && t.low[j+1] >= e {
				j++
			}
			j++ // the line that closes the header's block
			if j >= n || !strings.Contains(t.code[j], "else") {
				break
			}
		}
	}
}

// redeclares reports whether line j is name := e (or a list of names
// with name among them) and no header: in an inner block, it certainly
// declares name anew there.
func (t *tidyLines) redeclares(j int, name string) bool {
	c := strings.TrimSpace(t.code[j])
	if strings.HasSuffix(c, "{") || strings.Contains(c, "func(") {
		return false
	}
	lhs, op, _, ok := assignment(c)
	if !ok || op != ":=" {
		return false
	}
	for _, f := range strings.Split(lhs, ",") {
		if strings.TrimSpace(f) == name {
			return true
		}
	}
	return false
}

// declares reports whether line j declares name: var name, name on the
// left of :=, or among a function literal's parameters.
func (t *tidyLines) declares(j int, name string) bool {
	c := t.code[j]
	return declaresName(c, name) || strings.Contains(c, "func(") && hasIdent(c, name)
}

// named reports whether a line that sees the declaration at i, not a
// blank assignment, names name (even as a selector or in a string).
func (t *tidyLines) named(i int, name string) bool {
	if name == "" {
		return true
	}
	found := false
	t.scope(i, name, false, func(j int, text string) {
		found = found || !t.blank[j] && strings.Contains(text, name)
	})
	return found
}

// drop removes the declaration at i of name, which the lines that see it
// name only in blank assignments, and those.
func (t *tidyLines) drop(i int, name string) {
	t.gone[i] = true
	t.scope(i, name, false, func(j int, _ string) {
		if !t.blank[j] {
			return
		}
		var keep []string
		for _, n := range t.blanks[j] {
			if n != name {
				keep = append(keep, n)
			}
		}
		t.blanks[j] = keep
	})
}

// read reports whether name, blank-assigned on line at, is declared
// earlier in the same block and certainly read by a line that sees that
// declaration.
func (t *tidyLines) read(at int, name string) bool {
	d := t.depth[at]
	decl := -1
	for i := at - 1; i >= 0 && t.low[i] >= d; i-- {
		if !t.gone[i] && t.depth[i] == d && declaresName(t.code[i], name) {
			decl = i
			break
		}
	}
	if decl < 0 {
		return false
	}
	read, seen := false, false
	t.scope(decl, name, true, func(j int, text string) {
		seen = seen || j == at
		read = read || !t.blank[j] && reads(text, name)
	})
	return read && seen
}

// declName returns the variable a pure line declares: var x T or x := e.
func declName(code string) string {
	c := strings.TrimSpace(code)
	if s, ok := strings.CutPrefix(c, "var "); ok {
		c = s
	} else if i := strings.Index(c, " := "); i >= 0 {
		c = c[:i]
	}
	if i := strings.IndexAny(c, " \t"); i >= 0 {
		c = c[:i]
	}
	for j := range len(c) {
		if !isIdentByte(c[j]) {
			return ""
		}
	}
	return c
}

// codeOf returns line without its string and rune literals (their
// contents blanked) and its comment.
func codeOf(line string) string {
	b := []byte(line)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"', '\'', '`':
			q := b[i]
			for i++; i < len(b) && b[i] != q; i++ {
				if b[i] == '\\' && q != '`' && i+1 < len(b) {
					b[i] = ' '
					i++
				}
				b[i] = ' '
			}
		case '/':
			if i+1 < len(b) && b[i+1] == '/' {
				return string(b[:i])
			}
		}
	}
	return string(b)
}

// assignment splits a statement line at its assignment operator (=, :=
// or an operator-assignment): the places it sets, the operator and the
// rest; ok is false for a line that assigns nothing.
func assignment(code string) (lhs, op, rhs string, ok bool) {
	for i := 0; i < len(code); i++ {
		if code[i] != '=' {
			continue
		}
		if i+1 < len(code) && code[i+1] == '=' {
			i++ // ==
			continue
		}
		j := i
		if j > 0 && code[j-1] == ':' {
			j--
		} else if j > 0 && strings.IndexByte("!<>", code[j-1]) >= 0 {
			if code[j-1] != '<' && code[j-1] != '>' || j < 2 || code[j-2] != code[j-1] {
				continue // !=, <=, >= (but <<= and >>= assign)
			}
		}
		for j > 0 && strings.IndexByte("+-*/%&|^<>", code[j-1]) >= 0 {
			j--
		}
		return code[:j], code[j : i+1], code[i+1:], true
	}
	return "", "", code, false
}

// declaresName reports whether the line declares name: var name, or name on
// the left of := (for, if and switch headers included).
func declaresName(code, name string) bool {
	for i := range len(code) {
		if identAt(code, i, "var") && identAt(strings.TrimLeft(code[i+3:], " \t"), 0, name) {
			return true
		}
	}
	lhs, op, _, ok := assignment(code)
	return ok && op == ":=" && hasIdent(lhs, name)
}

// reads reports whether the line certainly reads name: anywhere but as
// the whole of a place it sets, and not as x++ (which Go would count, but
// a reading that errs to keeping need not).
func reads(code, name string) bool {
	t := strings.TrimSpace(code)
	if t == name+"++" || t == name+"--" {
		return false
	}
	lhs, _, rhs, ok := assignment(code)
	if !ok {
		return hasIdent(code, name)
	}
	if hasIdent(rhs, name) {
		return true
	}
	depth := 0
	for i := 0; i < len(lhs); i++ {
		switch lhs[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		default:
			if !identAt(lhs, i, name) {
				continue
			}
			next := strings.TrimLeft(lhs[i+len(name):], " \t")
			if depth > 0 || strings.HasPrefix(next, "[") || strings.HasPrefix(next, ".") {
				return true // Go counts x[i] = v and x.f = v as uses of x
			}
		}
	}
	return false
}

// hasIdent reports whether name occurs in code as an identifier, not as a
// selector after a dot.
func hasIdent(code, name string) bool {
	for i := range len(code) {
		if identAt(code, i, name) {
			return true
		}
	}
	return false
}

func identAt(code string, i int, name string) bool {
	if !strings.HasPrefix(code[i:], name) {
		return false
	}
	if i > 0 && (isIdentByte(code[i-1]) || code[i-1] == '.') {
		return false
	}
	end := i + len(name)
	return end == len(code) || !isIdentByte(code[end])
}

func isIdentByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
