// Package sidecar runs the LLVM 19 tools (opt, llc, ld.lld) that turn
// LLVM IR text into a shared object for the host: it finds them, checks
// their version, and runs them with deterministic options.
//
// Layering: this package knows no IR of ours and no lowering; it takes IR
// text and a target and hands back bytes. It imports only the standard
// library.
package sidecar

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrNotFound is the error Find returns when the LLVM 19 tools are not
// there: the generator then writes no LLVM artifacts and says so.
var ErrNotFound = errors.New("sidecar: LLVM 19 tools (opt-19, llc-19, ld.lld-19, llvm-link-19) not found")

// Tools are the paths of the LLVM 19 tools.
type Tools struct {
	Opt, Llc, Lld, IRLinker string
}

// Target is what llc compiles for.
type Target struct {
	Triple   string // e.g. x86_64-unknown-linux-gnu
	CPU      string // e.g. x86-64-v3
	Features string // e.g. +avx2,+fma; "" for the CPU's own
}

// libDirs are where Link looks for the libraries it is told to link for
// triple (arch-vendor-linux-gnu): Debian's multiarch folders of the
// architecture, then those of Debian's cross C library for it (e.g.
// libc6-arm64-cross for aarch64), then, where arch is this machine's own,
// the /lib64 folders of other distributions. ld.lld stops at the first
// file of a name, and refuses one of another architecture, so a folder of
// another's libraries is never named.
func libDirs(triple string) []string {
	arch, _, _ := strings.Cut(triple, "-")
	tuple := arch + "-linux-gnu"
	dirs := []string{"/lib/" + tuple, "/usr/lib/" + tuple, "/usr/" + tuple + "/lib"}
	if goarch[arch] == runtime.GOARCH {
		dirs = append(dirs, "/lib64", "/usr/lib64")
	}
	return dirs
}

// goarch names Go's architecture of a triple's, where Link may link for
// it with the machine's own libraries.
var goarch = map[string]string{"x86_64": "amd64", "aarch64": "arm64"}

// toolNames are the names Find looks for, in the order of Tools' fields.
var toolNames = [...]string{"opt-19", "llc-19", "ld.lld-19", "llvm-link-19"}

// Find locates the tools in the folder named by XPU_LLVM, else on PATH,
// and checks that llc is LLVM 19. A missing tool is ErrNotFound; a tool of
// another version is an error naming it.
func Find(ctx context.Context) (*Tools, error) {
	var paths [len(toolNames)]string
	dir := os.Getenv("XPU_LLVM")
	for i, name := range toolNames {
		var p string
		var err error
		if dir != "" {
			p, err = exec.LookPath(filepath.Join(dir, name))
		} else {
			p, err = exec.LookPath(name)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrNotFound, name, err)
		}
		paths[i] = p
	}
	t := &Tools{Opt: paths[0], Llc: paths[1], Lld: paths[2], IRLinker: paths[3]}
	out, err := run(ctx, t.Llc, nil, "--version")
	if err != nil {
		return nil, err
	}
	if !strings.Contains(string(out), "LLVM version 19.") {
		return nil, fmt.Errorf("sidecar: %s is not LLVM 19: %s", t.Llc, firstLine(out))
	}
	return t, nil
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// run runs tool with args and stdin, returning its stdout; a failure
// names the tool and carries its stderr.
func run(ctx context.Context, tool string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, tool, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("sidecar: %s: %w", filepath.Base(tool), ctx.Err())
		}
		return nil, fmt.Errorf("sidecar: %s %s: %v\n%s", filepath.Base(tool), strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// Optimize runs opt -O3 on IR text and returns the optimized IR text.
func (t *Tools) Optimize(ctx context.Context, ir []byte) ([]byte, error) {
	return run(ctx, t.Opt, ir, "-O3", "-S", "-o", "-", "-")
}

// Object compiles IR text (optimized with opt -O3 first) to a
// position-independent ELF object for tgt.
func (t *Tools) Object(ctx context.Context, ir []byte, tgt Target) ([]byte, error) {
	return t.compile(ctx, ir, tgt, "-filetype=obj", "-relocation-model=pic")
}

// compile runs opt -O3 on IR text, then llc for tgt with args.
func (t *Tools) compile(ctx context.Context, ir []byte, tgt Target, args ...string) ([]byte, error) {
	opt, err := t.Optimize(ctx, ir)
	if err != nil {
		return nil, err
	}
	args = append([]string{"-O3", "-mtriple=" + tgt.Triple, "-o", "-", "-"}, args...)
	if tgt.CPU != "" {
		args = append(args, "-mcpu="+tgt.CPU)
	}
	if tgt.Features != "" {
		args = append(args, "-mattr="+tgt.Features)
	}
	return run(ctx, t.Llc, opt, args...)
}

// Assembly compiles IR text (optimized with opt -O3 first) to tgt's
// assembly: for nvptx64, the PTX text a CUDA driver loads.
func (t *Tools) Assembly(ctx context.Context, ir []byte, tgt Target) ([]byte, error) {
	return t.compile(ctx, ir, tgt, "-filetype=asm")
}

// Link links objects compiled for tgt into a shared object and returns
// its bytes. libs are linker arguments for the libraries it needs (e.g.
// "-l:libm.so.6"), found in the system's folders of tgt's architecture;
// the output is the same for the same inputs (no build id, fixed hash
// style), stripped of what the exported symbols do not need.
func (t *Tools) Link(ctx context.Context, tgt Target, objects [][]byte, libs ...string) ([]byte, error) {
	var dirs []string
	var extra []string
	if len(libs) > 0 {
		// ld.lld has no default search path: name the system's library
		// folders of the target's architecture.
		dirs = libDirs(tgt.Triple)
		for _, d := range dirs {
			extra = append(extra, "-L"+d)
		}
	}
	extra = append(extra, libs...)
	so, err := t.lld(ctx, objects, []string{"--hash-style=gnu", "-z", "noseparate-code", "--strip-all", "-z", "now"}, extra)
	if err != nil && len(dirs) > 0 {
		return nil, fmt.Errorf("%w\n(the libraries of %s are looked for in %s)", err, tgt.Triple, strings.Join(dirs, ", "))
	}
	return so, err
}

// CodeObject links AMDGPU objects into a code object (HSACO) and returns
// its bytes: a shared object whose symbol tables the HIP loader reads,
// so nothing is stripped; no build id, for the same output from the same
// inputs.
func (t *Tools) CodeObject(ctx context.Context, objects [][]byte) ([]byte, error) {
	return t.lld(ctx, objects, []string{"--no-undefined"}, nil)
}

// lld links objects into a shared object with no build id, with flags
// before the objects and extra after them, and returns its bytes.
func (t *Tools) lld(ctx context.Context, objects [][]byte, flags, extra []string) ([]byte, error) {
	return withFiles(objects, ".o", func(dir string, paths []string) ([]byte, error) {
		out := filepath.Join(dir, "out.so")
		args := append(append([]string{"-shared", "--build-id=none", "-o", out}, flags...), paths...)
		if _, err := run(ctx, t.Lld, nil, append(args, extra...)...); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(out)
		if err != nil {
			return nil, fmt.Errorf("sidecar: %w", err)
		}
		return b, nil
	})
}

// LinkIR links modules of IR text (of one triple) into one, with
// llvm-link, and returns its text: internal names that clash are
// renamed.
func (t *Tools) LinkIR(ctx context.Context, modules [][]byte) ([]byte, error) {
	return withFiles(modules, ".ll", func(_ string, paths []string) ([]byte, error) {
		return run(ctx, t.IRLinker, nil, append([]string{"-S", "-o", "-"}, paths...)...)
	})
}

// withFiles writes each of inputs to a file of a new temporary folder
// (in0.ext, in1.ext, ...), calls f with the folder and the files' paths,
// and removes the folder.
func withFiles(inputs [][]byte, ext string, f func(dir string, paths []string) ([]byte, error)) ([]byte, error) {
	dir, err := os.MkdirTemp("", "xpu-sidecar-")
	if err != nil {
		return nil, fmt.Errorf("sidecar: %w", err)
	}
	defer os.RemoveAll(dir)
	paths := make([]string, len(inputs))
	for i, in := range inputs {
		paths[i] = filepath.Join(dir, fmt.Sprintf("in%d%s", i, ext))
		if err := os.WriteFile(paths[i], in, 0o600); err != nil {
			return nil, fmt.Errorf("sidecar: %w", err)
		}
	}
	return f(dir, paths)
}

// SharedObject compiles IR text for tgt and links it alone into a shared
// object.
func (t *Tools) SharedObject(ctx context.Context, ir []byte, tgt Target, libs ...string) ([]byte, error) {
	obj, err := t.Object(ctx, ir, tgt)
	if err != nil {
		return nil, err
	}
	return t.Link(ctx, tgt, [][]byte{obj}, libs...)
}
