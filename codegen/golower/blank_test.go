package golower

import (
	"strings"
	"testing"
)

// TestTidy checks what tidy drops and keeps, on functions as the
// lowering writes them (pure lines marked).
func TestTidy(t *testing.T) {
	p := pureMark
	cases := []struct{ name, in, want string }{
		{"unnamed pure declaration goes with its blank",
			"{\n\tli := lx" + p + "\n\t_ = li\n\tx[0] = 1\n}",
			"{\n\tx[0] = 1\n}"},
		{"a declaration with effects stays",
			"{\n\tv := f()\n\t_ = v\n}",
			"{\n\tv := f()\n\t_ = v\n}"},
		{"an index on the left reads",
			"{\n\tv := g()\n\t_ = v\n\tv[1] = 2\n}",
			"{\n\tv := g()\n\tv[1] = 2\n}"},
		{"an assignment does not read",
			"{\n\tv := g()\n\t_ = v\n\tv = 2\n}",
			"{\n\tv := g()\n\t_ = v\n\tv = 2\n}"},
		{"a for header shadows",
			"{\n\tli := g()\n\t_ = li\n\tfor li := 0; li < 4; li++ {\n\t\tuse(li)\n\t}\n}",
			"{\n\tli := g()\n\t_ = li\n\tfor li := 0; li < 4; li++ {\n\t\tuse(li)\n\t}\n}"},
		{"a function literal's parameter shadows",
			"{\n\tli := g()\n\t_ = li\n\tf := func(li uint32) uint32 {\n\t\treturn li\n\t}\n\tf(1)\n}",
			"{\n\tli := g()\n\t_ = li\n\tf := func(li uint32) uint32 {\n\t\treturn li\n\t}\n\tf(1)\n}"},
		{"a string names nothing",
			"{\n\tli := g()\n\t_ = li\n\tpanic(\"li\")\n}",
			"{\n\tli := g()\n\t_ = li\n\tpanic(\"li\")\n}"},
		{"a read in an inner block counts",
			"{\n\tv := g()\n\t_, _ = v, w\n\tif c {\n\t\tuse(v)\n\t}\n}",
			"{\n\tv := g()\n\t_ = w\n\tif c {\n\t\tuse(v)\n\t}\n}"},
		{"dropping one declaration frees another",
			"{\n\tlx := uint32(0)" + p + "\n\t_ = lx\n\tvar v uint32 = gx0 + lx" + p + "\n\t_ = v\n}",
			"{\n}"},
		{"a mention inside a possible shadow keeps the declaration",
			"{\n\tp := view()" + p + "\n\tx := p[func() uint32 { return 1 }()]\n\tuse(x)\n}",
			"{\n\tp := view()\n\tx := p[func() uint32 { return 1 }()]\n\tuse(x)\n}"},
		{"an inner declaration hides the outer one",
			"{\n\tli := uint32(0)" + p + "\n\t_ = li\n\tfor lx := 0; lx < 4; lx++ {\n\t\tli := lx\n\t\tuse(li)\n\t}\n}",
			"{\n\tfor lx := 0; lx < 4; lx++ {\n\t\tli := lx\n\t\tuse(li)\n\t}\n}"},
		{"an inner declaration's value reads the outer one",
			"{\n\tli := uint32(0)" + p + "\n\tif c {\n\t\tli := li + 1\n\t\tuse(li)\n\t}\n}",
			"{\n\tli := uint32(0)\n\tif c {\n\t\tli := li + 1\n\t\tuse(li)\n\t}\n}"},
	}
	for _, c := range cases {
		if got := tidy(c.in); got != c.want {
			t.Errorf("%s:\n%s\nbecame\n%s\nwant\n%s", c.name, c.in, got, c.want)
		}
		if strings.Contains(tidy(c.in), pureMark) {
			t.Errorf("%s: the mark is left", c.name)
		}
	}
}
