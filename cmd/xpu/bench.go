package main

import (
	"fmt"
	"io"
	"os/exec"
)

// benchPrograms maps a backend to the program that measures its kernels.
//
// The benchmarks launch generated kernels, so they run as a program of
// their own instead of being linked in here: this command is the
// generator, and it must build from kernel sources alone, even while a
// generated file is missing or stale.
var benchPrograms = map[string]string{
	"cpu": "github.com/goxpu/xpu/gpu/cpu/cpubench/cmd/cpubench",
}

// runBench measures a backend's kernels beside their reference points and
// prints one table. Only the CPU backend has benchmarks today.
func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || benchPrograms[args[0]] == "" {
		return fmt.Errorf("%w: xpu bench cpu", errUsage)
	}
	cmd := exec.Command("go", "run", benchPrograms[args[0]])
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", benchPrograms[args[0]], err)
	}
	return nil
}
