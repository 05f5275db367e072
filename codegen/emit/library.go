package emit

// This file writes the libraries of native targets: a native target (the
// host tier's shared object, PTX and HSACO) builds the kernels of a
// package together into one object per selector, which a generated file
// embeds from a file beside it (go:embed) and each kernel's artifact names
// with its entry symbol.
//
// The runtime loads native code only where its purego drivers build (the
// host tier, cuda and hip: amd64 and arm64), so the variables that embed
// the libraries are in two files of their own with build constraints:
// NativeFile embeds them for those architectures, PortableFile declares
// them empty for every other (wasm above all, whose binaries would
// otherwise carry every package's shared objects and GPU code for
// nothing). An artifact of an empty library is never selected there: no
// driver that reads it is built.

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// LibraryFile is the name of the file, beside the generated Go file,
// that holds the library of the native artifact a: the object its target
// built for the package's kernels at a's instruction set level, e.g.
// xpu_gen_llvm-host_x86-64-v3.so.
func LibraryFile(a *schema.Artifact) string { return libraryOf(a).file() }

// The generated files that declare the library variables, and the build
// constraint of the one that embeds them: the architectures the runtime
// loads native code on.
const (
	NativeFile   = "xpu_gen_native.go"
	PortableFile = "xpu_gen_portable.go"
	nativeArchs  = "amd64 || arm64"
)

// GeneratedFiles are the Go files a generation writes.
var GeneratedFiles = []string{FileName, NativeFile, PortableFile}

// CheckedEnv is the environment variable that the README's test command
// sets once go generate has left every generated file of the module as it
// was: the generator's tests that would generate or compile the module's
// kernel packages again leave that to the step.
const CheckedEnv = "XPU_GENERATE_CHECKED"

// IsGeneratedFile reports whether name is one of GeneratedFiles.
func IsGeneratedFile(name string) bool { return slices.Contains(GeneratedFiles, name) }

// IsLibraryFile reports whether name is one LibraryFile could give, or
// one of the Go files that declare the libraries: a generation removes
// such files that it no longer writes.
func IsLibraryFile(name string) bool {
	if name == NativeFile || name == PortableFile {
		return true
	}
	for _, t := range []schema.Target{schema.TargetLLVMHost, schema.TargetPTX, schema.TargetHSACO} {
		prefix := "xpu_gen_" + string(t) + "_"
		isa, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		for _, ext := range []string{".so", ".ptx", ".hsaco", ".bin"} {
			if s, ok := strings.CutSuffix(isa, ext); ok && s != "" && (libraryKey{Form{Target: t}, s}).file() == name {
				return true
			}
		}
	}
	return false
}

// libraryKey names a library by what selects it.
type libraryKey struct {
	form Form
	isa  string
}

// libraryOf is the library that holds the code of the native artifact a.
func libraryOf(a *schema.Artifact) libraryKey {
	return libraryKey{Form{a.Backend, a.Target}, a.Selector.ISA}
}

func (k libraryKey) file() string {
	ext := ".bin"
	switch k.form.Target {
	case schema.TargetLLVMHost:
		ext = ".so"
	case schema.TargetPTX:
		ext = ".ptx"
	case schema.TargetHSACO:
		ext = ".hsaco"
	}
	return "xpu_gen_" + string(k.form.Target) + "_" + k.isa + ext
}

// libraries returns the libraries the native artifacts of ks are in,
// sorted by file name.
func libraries(ks []Lowered) []libraryKey {
	var keys []libraryKey
	for _, l := range ks {
		for i := range l.Artifacts {
			if a := &l.Artifacts[i]; a.Target.Native() {
				if k := libraryOf(a); !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	slices.SortFunc(keys, func(a, b libraryKey) int { return cmp.Compare(a.file(), b.file()) })
	return keys
}

// pickLibrary chooses the name of the variable that embeds library k.
func (n *Names) pickLibrary(k libraryKey) {
	if n.libs == nil {
		n.libs = map[libraryKey]string{}
	}
	n.libs[k] = n.pick("lib" + capitals(string(k.form.Target)) + capitals(k.isa))
}

// library is the name of the variable that embeds library k.
func (n *Names) library(k libraryKey) string { return n.libs[k] }

// LibraryFiles returns NativeFile and PortableFile for the package m,
// whose kernels lowered as ks (as [File] takes them), or none when no
// artifact of ks is native.
func LibraryFiles(m *ir.Module, ks []Lowered) (map[string][]byte, error) {
	names, err := Plan(m, forms(ks))
	if err != nil {
		return nil, err
	}
	libs := libraries(ks)
	if len(libs) == 0 {
		return nil, nil
	}
	for _, lib := range libs {
		names.pickLibrary(lib)
	}
	files := map[string][]byte{}
	for name, native := range map[string]bool{NativeFile: true, PortableFile: false} {
		var b bytes.Buffer
		constraint, what := nativeArchs, "embeds the libraries of the package's native code, which the artifacts of "+FileName+" name"
		if !native {
			constraint, what = "!("+nativeArchs+")", "declares the libraries of the package's native code, which the artifacts of "+FileName+
				" name, empty: the runtime loads no native code on these architectures"
		}
		fmt.Fprintf(&b, "%s\n\n//go:build %s\n\npackage %s\n", Header, constraint, m.Name)
		fmt.Fprintf(&b, "\n// This file %s.\n", what)
		if native {
			b.WriteString("\nimport _ \"embed\"\n")
		}
		for _, k := range libs {
			v := names.library(k)
			fmt.Fprintf(&b, "\n// %s is the %s library of the package's kernels for the %s backend at %s.\n", v, k.form.Target, k.form.Backend, k.isa)
			if native {
				fmt.Fprintf(&b, "//\n//go:embed %s\n", k.file())
			}
			fmt.Fprintf(&b, "var %s string\n", v)
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("emit: formatting %s: %w", name, err)
		}
		files[name] = src
	}
	return files, nil
}
