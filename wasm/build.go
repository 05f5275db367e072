package wasm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Demo is the import path of the demo program.
const Demo = "github.com/goxpu/xpu/wasm/demo"

// Names of the built files in a site's folder.
const (
	programFile  = "program.wasm"
	wasmExecFile = "wasm_exec.js"
)

// Build builds the main package pkg (an import path or a path relative to
// the current folder, inside the module) for GOOS=js GOARCH=wasm into dir,
// and copies the Go distribution's wasm_exec.js beside it, so that the
// loader runs the program with the runtime it was built for.
func Build(ctx context.Context, pkg, dir string) error {
	return build(ctx, "build", pkg, dir)
}

// BuildTest builds the test binary of pkg (go test -c) for GOOS=js
// GOARCH=wasm into dir, as [Build] does a program: the page runs its tests
// in the browser, with the flags its query parameter args gives (e.g.
// ?args=-test.v), and their output goes to the browser's console.
func BuildTest(ctx context.Context, pkg, dir string) error {
	return build(ctx, "test", pkg, dir)
}

// build runs go build, or go test -c when verb is "test".
func build(ctx context.Context, verb, pkg, dir string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("wasm: the go command is needed to build %s: %w", pkg, err)
	}
	args := []string{verb, "-o", filepath.Join(dir, programFile), pkg}
	if verb == "test" {
		args = []string{verb, "-c", "-o", filepath.Join(dir, programFile), pkg}
	}
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("wasm: building %s: %w\n%s", pkg, err, out.Bytes())
	}
	src, err := wasmExec(ctx, goBin)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("wasm: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, wasmExecFile), data, 0o644)
}

// wasmExec returns the path of the Go distribution's wasm_exec.js.
func wasmExec(ctx context.Context, goBin string) (string, error) {
	out, err := exec.CommandContext(ctx, goBin, "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("wasm: go env GOROOT: %w", err)
	}
	root := strings.TrimSpace(string(out))
	// lib/wasm since Go 1.24, misc/wasm before.
	for _, rel := range []string{"lib/wasm", "misc/wasm"} {
		p := filepath.Join(root, rel, wasmExecFile)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("wasm: no " + wasmExecFile + " in the Go distribution at " + root)
}
