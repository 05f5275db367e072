package emit

// This file writes the libraries of native targets: a native target (the
// host tier's shared object, later PTX and HSACO) builds the kernels of a
// package together into one object per selector, which the generated file
// embeds from a file beside it (go:embed) and each kernel's artifact names
// with its entry symbol.

import (
	"cmp"
	"slices"
	"strings"

	"github.com/goxpu/xpu/schema"
)

// LibraryFile is the name of the file, beside the generated Go file,
// that holds the library of the native artifact a: the object its target
// built for the package's kernels at a's instruction set level, e.g.
// xpu_gen_llvm-host_x86-64-v3.so.
func LibraryFile(a *schema.Artifact) string { return libraryOf(a).file() }

// IsLibraryFile reports whether name is one LibraryFile could give: a
// generation removes such files that it no longer writes.
func IsLibraryFile(name string) bool {
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

// libraries writes the variables that embed the libraries keys.
func (w *writer) libraries(keys []libraryKey) {
	for _, k := range keys {
		name := w.names.library(k)
		w.printf("\n// %s is the %s library of the package's kernels for the %s backend at %s.\n",
			name, k.form.Target, k.form.Backend, k.isa)
		w.printf("//\n//go:embed %s\nvar %s string\n", k.file(), name)
	}
}
