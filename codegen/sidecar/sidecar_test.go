package sidecar

import (
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"os"
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
