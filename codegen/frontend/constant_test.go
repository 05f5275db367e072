package frontend

import (
	"fmt"
	"strings"
	"testing"
)

// TestConstValueLinear checks that the front end asks whether an
// expression is constant once per expression: a sum of n terms costs
// work in proportion to n, not n*n (which made a 20,000-term expression
// take minutes). It counts evaluations rather than timing them.
func TestConstValueLinear(t *testing.T) {
	evals := func(n int) int {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, " + x[i+%d]", i%7)
		}
		src := "package k\n\nimport \"github.com/goxpu/xpu\"\n\n//xpu:kernel block=64\nfunc K(t xpu.Thread, y, x []float32) {\n\ti := t.GlobalX()\n\ty[i] = 0" + b.String() + "\n}\n"
		fset, files, pkg, info, err := typeCheck("k.go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		c := newChecker(fset, pkg, info)
		if _, err := c.check(files); err != nil {
			t.Fatal(err)
		}
		return c.constEvals
	}
	const n = 2000
	small, large := evals(n), evals(2*n)
	// Each term is a few expressions (the +, the index, its operands).
	if large > 8*2*n || large > 2*small+64 {
		t.Errorf("constant evaluations: %d for %d terms, %d for %d: not linear", small, n, large, 2*n)
	}
}
