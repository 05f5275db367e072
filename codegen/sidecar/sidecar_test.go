package sidecar

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tools returns the sidecar, skipping when it is absent unless
// XPU_REQUIRE names llvm-host.
func tools(t *testing.T) *Tools {
	t.Helper()
	tl, err := Find(context.Background())
	if errors.Is(err, ErrNotFound) && !strings.Contains(os.Getenv("XPU_REQUIRE"), "llvm-host") {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

const module = `target triple = "x86_64-unknown-linux-gnu"

define i32 @xpu_Answer(i32 %x) {
  %y = add i32 %x, 42
  ret i32 %y
}

define internal float @helper(float %x) {
  %y = call float @llvm.exp.f32(float %x)
  ret float %y
}

define float @xpu_Exp(float %x) {
  %y = call float @helper(float %x)
  ret float %y
}

declare float @llvm.exp.f32(float)
`

var host = Target{Triple: "x86_64-unknown-linux-gnu", CPU: "x86-64-v3"}

func TestSharedObject(t *testing.T) {
	tl := tools(t)
	ctx := context.Background()
	so, err := tl.SharedObject(ctx, []byte(module), host, "-l:libm.so.6")
	if err != nil {
		t.Fatal(err)
	}
	again, err := tl.SharedObject(ctx, []byte(module), host, "-l:libm.so.6")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(so, again) {
		t.Error("two builds of one module differ")
	}
	f, err := elf.NewFile(bytes.NewReader(so))
	if err != nil {
		t.Fatal(err)
	}
	if f.Type != elf.ET_DYN {
		t.Errorf("ELF type %v, want ET_DYN", f.Type)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF {
			exported[s.Name] = true
		}
	}
	for _, name := range []string{"xpu_Answer", "xpu_Exp"} {
		if !exported[name] {
			t.Errorf("%s not exported (dynamic symbols %v)", name, syms)
		}
	}
	if exported["helper"] {
		t.Error("internal function exported")
	}
	libs, _ := f.ImportedLibraries()
	if len(libs) != 1 || libs[0] != "libm.so.6" {
		t.Errorf("needed libraries %v, want [libm.so.6]", libs)
	}
}

// TestSharedObjectAArch64 links the module for aarch64 with that
// architecture's libm, where the system has one (Debian's
// libc6-arm64-cross on another machine): the host tier's arm64 objects
// are built on any machine.
func TestSharedObjectAArch64(t *testing.T) {
	tl := tools(t)
	arm := Target{Triple: "aarch64-unknown-linux-gnu", CPU: "generic", Features: "+neon"}
	if !hasLib(arm.Triple, "libm.so.6") {
		msg := "no aarch64 libm.so.6 in " + strings.Join(libDirs(arm.Triple), ", ") + " (Debian: libc6-arm64-cross)"
		if strings.Contains(os.Getenv("XPU_REQUIRE"), "llvm-host") {
			t.Fatalf("%s, and XPU_REQUIRE=%s requires the host tier", msg, os.Getenv("XPU_REQUIRE"))
		}
		t.Skip(msg)
	}
	ir := strings.Replace(module, "x86_64-unknown-linux-gnu", arm.Triple, 1)
	so, err := tl.SharedObject(context.Background(), []byte(ir), arm, "-l:libm.so.6")
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(so))
	if err != nil {
		t.Fatal(err)
	}
	if f.Machine != elf.EM_AARCH64 || f.Type != elf.ET_DYN {
		t.Errorf("ELF machine %v, type %v; want EM_AARCH64, ET_DYN", f.Machine, f.Type)
	}
	if libs, _ := f.ImportedLibraries(); len(libs) != 1 || libs[0] != "libm.so.6" {
		t.Errorf("needed libraries %v, want [libm.so.6]", libs)
	}
}

// TestMissingLibrary checks that a library Link cannot find is an error
// naming it and the folders it was looked for in.
func TestMissingLibrary(t *testing.T) {
	tl := tools(t)
	_, err := tl.SharedObject(context.Background(), []byte(module), host, "-l:libxpu-none.so.1")
	if err == nil || !strings.Contains(err.Error(), "libxpu-none.so.1") || !strings.Contains(err.Error(), "/usr/lib/x86_64-linux-gnu") {
		t.Errorf("error %v, want one naming the library and the folders", err)
	}
}

// hasLib reports whether one of triple's library folders holds name.
func hasLib(triple, name string) bool {
	for _, d := range libDirs(triple) {
		if _, err := os.Stat(filepath.Join(d, name)); err == nil {
			return true
		}
	}
	return false
}

func TestToolError(t *testing.T) {
	tl := tools(t)
	_, err := tl.Object(context.Background(), []byte("define i32 @f() {\n  ret i64 0\n}\n"), host)
	if err == nil || !strings.Contains(err.Error(), "opt-19") || !strings.Contains(err.Error(), "error") {
		t.Errorf("bad IR: error %v, want one naming opt-19 with its message", err)
	}
}

func TestCanceled(t *testing.T) {
	tl := tools(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tl.Object(ctx, []byte(module), host); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled build: error %v, want context.Canceled", err)
	}
}

func TestNotFound(t *testing.T) {
	t.Setenv("XPU_LLVM", t.TempDir())
	if _, err := Find(context.Background()); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty XPU_LLVM: error %v, want ErrNotFound", err)
	}
}
