package main

// This file implements the commands that run a program of their own:
// `xpu devices`, `xpu replay` and `xpu bench` (and `xpu tune`, tune.go,
// writes one).
//
// They touch devices, so their programs link the runtime and its drivers
// (cgo WebGPU, purego) and launch generated kernels. This command is the
// generator that every go generate runs: it links none of that, so that it
// builds quickly, without a C toolchain, and from kernel sources alone,
// even while a generated file is missing or stale (the dependency test,
// deps_test.go at the module root, keeps it so).

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// devicesProgram lists the devices of every backend present.
const devicesProgram = "github.com/goxpu/xpu/cmd/xpu/devices"

// replayProgram replays a corpus of recorded launches.
const replayProgram = "github.com/goxpu/xpu/cmd/xpu/replay"

// benchPrograms maps a backend to the program that measures its kernels.
var benchPrograms = map[string]string{
	"cpu": "github.com/goxpu/xpu/bench/cpubench/cmd/cpubench",
}

// runDevices lists the devices of every backend present.
func runDevices(args []string, stdout, stderr io.Writer) error {
	return runProgram(devicesProgram, args, stdout, stderr)
}

// runReplay replays a corpus of recorded launches through the reference
// runner: the kernels of the library and the suites, which its program
// links.
func runReplay(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: xpu replay [-v] [-holds file] dir", errUsage)
	}
	return runProgram(replayProgram, args, stdout, stderr)
}

// runBench measures a backend's kernels beside their reference points and
// prints one table. Only the CPU backend has such a program today.
func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || benchPrograms[args[0]] == "" {
		return fmt.Errorf("%w: xpu bench cpu", errUsage)
	}
	return runProgram(benchPrograms[args[0]], nil, stdout, stderr)
}

// exitStatus is the status a program exited with, having said why on its
// standard error: xpu exits with it too.
type exitStatus int

func (s exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// runProgram builds the main package pkg, as go build finds it from the
// current directory, and runs it with args, its output going to stdout
// and stderr. It builds and then runs, rather than go run, so that the
// program's exit status is xpu's.
func runProgram(pkg string, args []string, stdout, stderr io.Writer) error {
	dir, err := os.MkdirTemp("", "xpu-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, filepath.Base(pkg))
	build := exec.Command("go", "build", "-o", bin, pkg)
	build.Stdout, build.Stderr = stderr, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	return runBinary(bin, args, stdout, stderr)
}

// runBinary runs the program bin with args, its output going to stdout
// and stderr; its exit status is xpu's.
func runBinary(bin string, args []string, stdout, stderr io.Writer) error {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	var exit *exec.ExitError
	if err := cmd.Run(); errors.As(err, &exit) {
		return exitStatus(exit.ExitCode())
	} else if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(bin), err)
	}
	return nil
}
