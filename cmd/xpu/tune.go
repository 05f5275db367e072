package main

// This file implements `xpu tune`: it links the packages named on its
// command line (whose families register themselves with the tuner) and
// the tuner's program body, github.com/goxpu/xpu/tune/tunecmd, into a
// program (runLinking, programs.go) and runs it.

import (
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// tuneProgram is the package whose Main the written main package calls.
const tuneProgram = "github.com/goxpu/xpu/tune/tunecmd"

// tuneValueFlags are the flags of tunecmd that take a value: the
// arguments after the flags are the packages.
var tuneValueFlags = map[string]bool{"store": true, "backend": true}

// runTune runs `xpu tune [-show] [-store dir] [-backend name] [packages]`.
func runTune(args []string, stdout, stderr io.Writer) error {
	flags, pkgs := splitFlags(args, tuneValueFlags)
	if len(pkgs) == 0 && !containsFlag(flags, "show") {
		return fmt.Errorf("%w: xpu tune [-store dir] [-backend name] packages..., or xpu tune -show", errUsage)
	}
	return runLinking("tune", tuneProgram, pkgs, flags, stdout, stderr)
}

// splitFlags returns the flags at the head of args (each with its value,
// for the names valued holds) and the arguments after them.
func splitFlags(args []string, valued map[string]bool) (flags, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, args[i+1:]
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return flags, args[i:]
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if valued[name] && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, nil
}

func containsFlag(flags []string, name string) bool {
	for _, f := range flags {
		if n, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "="); n == name {
			return true
		}
	}
	return false
}

// goOutput runs the go command with args and returns its output, trimmed.
func goOutput(args ...string) (string, error) {
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("go %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
