package fuzz

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/emit"
)

// The seeds of FuzzPipeline: every kernel of the project's kernel
// packages, each alone in a file with the declarations of its package's
// kernel files (types, constants, device functions, but no host code that
// uses the generated file); every Go source the
// front end's tests check (string literals that start a package, and its
// refusal files).
var (
	kernelDirs = []string{
		"../../kernels/conformance",
		"../../kernels/wave",
		"../testdata/*",
		"../../examples/*",
	}
	frontendTests    = "../frontend/*_test.go"
	frontendRefusals = "../frontend/testdata/refuse/*.go"
)

// generatorSeeds are FuzzGenerated's seeds: a few byte strings; the
// generator reads any bytes.
var generatorSeeds = []string{
	"",
	"\x00",
	"\xff\xff\xff\xff",
	"kernel",
	"\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10",
	"\x9c\x31\x07\xe2\x5a\x44\xd0\x19\x88\x6b\x02\xf7\x3e\xa5\x11\xc4\x60\x2d\x95\x7f\x08\xbb\x4e\x13",
	strings.Repeat("\x80\x41\x13\x07", 32),
}

// sourceSeeds returns the seeds of FuzzPipeline.
func sourceSeeds() ([][]byte, error) {
	var seeds [][]byte
	for _, pattern := range kernelDirs {
		dirs, _ := filepath.Glob(pattern)
		for _, dir := range dirs {
			s, err := kernelSeeds(dir)
			if err != nil {
				return nil, err
			}
			seeds = append(seeds, s...)
		}
	}
	tests, _ := filepath.Glob(frontendTests)
	for _, name := range tests {
		s, err := sourceLiterals(name)
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, s...)
	}
	refusals, _ := filepath.Glob(frontendRefusals)
	for _, name := range refusals {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, src)
	}
	return seeds, nil
}

// kernelSeeds returns one source per kernel of the package in dir (see
// the seeds' comment); nil when it has none.
func kernelSeeds(dir string) ([][]byte, error) {
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	var pkgName string
	var imps, shared []string
	var kernels []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if !bytes.Contains(src, []byte("//xpu:kernel")) || bytes.HasPrefix(src, []byte(emit.Header)) {
			continue
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pkgName = f.Name.Name
		text := func(n ast.Node, doc *ast.CommentGroup) string {
			from := n.Pos()
			if doc != nil {
				from = doc.Pos()
			}
			return string(src[fset.Position(from).Offset:fset.Position(n.End()).Offset])
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok == token.IMPORT {
					for _, s := range d.Specs {
						imps = append(imps, text(s, nil))
					}
					continue
				}
				shared = append(shared, text(d, d.Doc))
			case *ast.FuncDecl:
				if d.Doc != nil && strings.Contains(text(d.Doc, nil), "//xpu:kernel") {
					kernels = append(kernels, text(d, d.Doc))
					continue
				}
				shared = append(shared, text(d, d.Doc))
			}
		}
	}
	slices.Sort(imps)
	imps = slices.Compact(imps)
	var seeds [][]byte
	for _, k := range kernels {
		src := withoutUnusedImports(pkgName, imps, shared, k)
		seeds = append(seeds, src)
	}
	return seeds, nil
}

// unusedImport matches go/types' error for an unused import.
var unusedImport = regexp.MustCompile(`"([^"]+)" imported( as \w+)? and not used`)

// withoutUnusedImports writes the file of kernel k with the declarations
// shared, importing those of imps that it uses. A shared declaration that
// does not type-check alone (host code that uses what the generated file
// declares) is left out.
func withoutUnusedImports(pkg string, imps, shared []string, k string) []byte {
	imps, shared = slices.Clone(imps), slices.Clone(shared)
	for {
		var b bytes.Buffer
		b.WriteString("package " + pkg + "\n\nimport (\n")
		for _, i := range imps {
			b.WriteString("\t" + i + "\n")
		}
		b.WriteString(")\n\n")
		var ends []int // the line each shared declaration ends on
		for _, s := range shared {
			b.WriteString(s + "\n\n")
			ends = append(ends, bytes.Count(b.Bytes(), []byte("\n")))
		}
		b.WriteString(k + "\n")
		_, _, _, _, err := typeCheck(b.Bytes())
		if err == nil {
			return b.Bytes()
		}
		if m := unusedImport.FindStringSubmatch(err.Error()); m != nil {
			imps = slices.DeleteFunc(imps, func(i string) bool { return strings.HasSuffix(i, strconv.Quote(m[1])) })
			continue
		}
		var terr types.Error
		if !errors.As(err, &terr) {
			return b.Bytes() // a seed that does not type-check still seeds
		}
		line := terr.Fset.Position(terr.Pos).Line
		i, _ := slices.BinarySearch(ends, line)
		if i == len(shared) {
			return b.Bytes() // the error is the kernel's
		}
		shared = slices.Delete(shared, i, i+1)
	}
}

// sourceLiterals returns the string literals of the Go file name that
// hold a Go source file (they start with a package clause).
func sourceLiterals(name string) ([][]byte, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var srcs [][]byte
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && strings.HasPrefix(s, "package ") {
			srcs = append(srcs, []byte(s))
		}
		return true
	})
	return srcs, nil
}

// TestSeeds checks that the seeds reach the lowerings: every kernel seed
// type-checks, so that the fuzzer starts from the project's kernels.
func TestSeeds(t *testing.T) {
	for _, pattern := range kernelDirs {
		dirs, _ := filepath.Glob(pattern)
		for _, dir := range dirs {
			seeds, err := kernelSeeds(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range seeds {
				if _, _, _, _, err := typeCheck(s); err != nil {
					t.Errorf("a seed of %s does not type-check: %v\n%s", dir, err, numbered(s))
				}
			}
		}
	}
}
