package main

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/goxpu/xpu/cpu"
	"github.com/goxpu/xpu/cpu/cpubench"
)

// runBench measures a backend's kernels beside their reference points and
// prints one table. Only the CPU backend has benchmarks today.
func runBench(args []string, stdout, _ io.Writer) error {
	if len(args) != 1 || args[0] != "cpu" {
		return fmt.Errorf("%w: xpu bench cpu", errUsage)
	}
	f := cpu.Detect()
	fmt.Fprintf(stdout, "CPU backend, %s, %s/%s, GOMAXPROCS=%d, %s\n", f.Model, runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Fprintf(stdout, "facts: %v\n", f.Map())
	fmt.Fprintf(stdout, "date: %s\n\n", time.Now().UTC().Format(time.DateOnly))
	rs, err := cpubench.All(cpubench.Default())
	cpubench.Table(stdout, rs)
	return err
}
