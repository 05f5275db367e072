package frontend

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// expectation is one ERROR comment of a refusal test source.
type expectation struct {
	line, col int // col 0: any column
	pattern   string
	matched   bool
}

// errorComment matches ERROR ["+N:C"] "pattern" in a comment.
var errorComment = regexp.MustCompile(`ERROR (?:\+(\d+):(\d+) )?("(?:[^"\\]|\\.)*")`)

// expectations reads the ERROR comments of f: on a line comment, the
// error is expected on its line; on a block comment, at the token after
// it; with +N:C, N lines below at column C.
func expectations(t *testing.T, fset *token.FileSet, f *ast.File, src []byte) []*expectation {
	var out []*expectation
	for _, g := range f.Comments {
		for _, cm := range g.List {
			m := errorComment.FindStringSubmatch(cm.Text)
			if m == nil {
				continue
			}
			if strings.HasPrefix(cm.Text, "//xpu:") {
				// The directive's error quotes the directive, ERROR
				// comment and all: the pattern would match itself.
				t.Fatalf("%v: an ERROR on a //xpu: line matches its own text; put it on a line of its own (ERROR +N:C)", fset.Position(cm.Pos()))
			}
			pat, err := strconv.Unquote(m[3])
			if err != nil {
				t.Fatalf("%v: bad pattern %s", fset.Position(cm.Pos()), m[3])
			}
			p := fset.Position(cm.Pos())
			e := &expectation{line: p.Line, pattern: pat}
			switch {
			case m[1] != "":
				n, _ := strconv.Atoi(m[1])
				c, _ := strconv.Atoi(m[2])
				e.line, e.col = p.Line+n, c
			case strings.HasPrefix(cm.Text, "/*"):
				end := fset.Position(cm.End())
				off := end.Offset
				for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
					off++
				}
				e.line, e.col = end.Line, end.Column+off-end.Offset
			}
			out = append(out, e)
		}
	}
	return out
}

// TestRefusals checks every source under testdata/refuse: each file is
// type-checked as a package of its own, and the errors of Check must be
// exactly those its ERROR comments expect.
func TestRefusals(t *testing.T) {
	files, err := filepath.Glob("testdata/refuse/*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no refusal tests", err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			checkExpectations(t, name, src)
		})
	}
}

// checkExpectations runs Check on one source and matches its errors.
func checkExpectations(t *testing.T, name string, src []byte) {
	fset, files, pkg, info, err := typeCheckWithShared(name, src)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	want := expectations(t, fset, files[0], src)
	_, err = Check(fset, files, pkg, info)
	var list ErrorList
	if err != nil && !errors.As(err, &list) {
		t.Fatalf("Check returned %T: %v", err, err)
	}
	for _, e := range list {
		if e.Pos.File != filepath.Base(name) {
			continue // an error of the shared file
		}
		found := false
		for _, w := range want {
			if w.line == e.Pos.Line && (w.col == 0 || w.col == e.Pos.Col) && strings.Contains(e.Error(), w.pattern) && !w.matched {
				w.matched, found = true, true
				break
			}
		}
		if !found {
			t.Errorf("unexpected error: %v", e)
		}
		if e.Fix == "" {
			t.Errorf("error without a fix: %v", e)
		}
	}
	for _, w := range want {
		if !w.matched {
			t.Errorf("%s:%d:%d: missing error %q", filepath.Base(name), w.line, w.col, w.pattern)
		}
	}
}

// typeCheckWithShared type-checks one test source; sources in the
// refusal directory may use types declared in each other, so all are
// checked together and only name's errors are compared.
func typeCheckWithShared(name string, src []byte) (*token.FileSet, []*ast.File, *types.Package, *types.Info, error) {
	fset := token.NewFileSet()
	main, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	files := []*ast.File{main}
	others, _ := filepath.Glob(filepath.Join(filepath.Dir(name), "*.go"))
	for _, o := range others {
		if o == name {
			continue
		}
		f, err := parser.ParseFile(fset, o, nil, parser.ParseComments)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		files = append(files, f)
	}
	info := newInfo()
	conf := types.Config{Importer: testImporter{}, GoVersion: "go1.26"}
	pkg, err := conf.Check("example.com/refuse", fset, files, info)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return fset, files, pkg, info, nil
}

// TestEveryRuleTested checks that each rule has a refusal test.
func TestEveryRuleTested(t *testing.T) {
	files, _ := filepath.Glob("testdata/refuse/*.go")
	var all strings.Builder
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all.Write(b)
	}
	for r := range fixes {
		if r == RuleUnsupported {
			continue
		}
		if !strings.Contains(all.String(), "ERROR \"["+string(r)+"]") && !strings.Contains(all.String(), "\"["+string(r)+"]") {
			t.Errorf("rule %s has no refusal test", r)
		}
	}
}
