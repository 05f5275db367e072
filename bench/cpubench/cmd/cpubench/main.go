// Command cpubench measures the CPU backend's benchmark kernels beside
// their reference points, in one run, and prints one table. `xpu bench cpu`
// runs it.
package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/goxpu/xpu/bench/cpubench"
	"github.com/goxpu/xpu/gpu/cpu"
)

func main() {
	f := cpu.Detect()
	fmt.Printf("CPU backend, %s, %s/%s, GOMAXPROCS=%d, %s\n", f.Model, runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Printf("facts: %v\n", f.Map())
	fmt.Printf("date: %s\n\n", time.Now().UTC().Format(time.DateOnly))
	rs, err := cpubench.All(cpubench.Default())
	if err == nil {
		var tiers []cpubench.Result
		tiers, err = cpubench.Tiers(cpubench.Default())
		rs = append(rs, tiers...)
	}
	cpubench.Table(os.Stdout, rs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpubench:", err)
		os.Exit(1)
	}
}
