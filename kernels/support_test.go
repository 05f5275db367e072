package kernels_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/goxpu/xpu/kernels"
)

var update = flag.Bool("update", false, "rewrite docs/support.md's tables from the registrations")

// supportDoc is the support matrix's page; its tables lie between the
// two markers.
const (
	supportDoc   = "../docs/support.md"
	generatedTop = "<!-- The tables below are generated from kernels.Registry: go test ./kernels -run TestSupportMatrix -update -->\n"
	generatedEnd = "<!-- End of the generated tables. -->\n"
)

// TestSupportMatrix checks that docs/support.md shows what the library
// registers.
func TestSupportMatrix(t *testing.T) {
	m, err := kernels.Registry.Matrix()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(supportDoc)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), generatedTop)
	_, after, ok2 := strings.Cut(rest, generatedEnd)
	if !ok1 || !ok2 {
		t.Fatalf("%s lacks the markers of its generated tables", supportDoc)
	}
	want := before + generatedTop + "\n" + m + "\n" + generatedEnd + after
	if want == string(doc) {
		return
	}
	if *update {
		if err := os.WriteFile(supportDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is not the registrations' matrix; run go test ./kernels -run TestSupportMatrix -update. The matrix:\n%s", supportDoc, m)
}
