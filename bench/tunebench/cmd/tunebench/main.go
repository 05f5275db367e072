// Command tunebench prints, for the SGEMM family of package
// kernels/matmul over its shapes on one device, the tuner's choice per
// shape beside an exhaustive sweep of every member, and the summary:
// how many shapes' choice is within 5% of the sweep's best, and the best
// single fixed member's geometric mean over the tuned one's.
//
//	go run ./bench/tunebench/cmd/tunebench [-backend cpu|webgpu] [-sweeps 3]
//
// XPU_WEBGPU=dawn picks Dawn for the webgpu backend.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/goxpu/xpu/bench/tunebench"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/tune"
)

func main() {
	backend := flag.String("backend", "", "the backend (default: the one gpu.Open picks)")
	sweeps := flag.Int("sweeps", 3, "the sweeps per shape whose rounds make the reference")
	flag.Parse()
	if err := run(*backend, *sweeps); err != nil {
		fmt.Fprintln(os.Stderr, "tunebench:", err)
		os.Exit(1)
	}
}

func run(backend string, sweeps int) error {
	var d *gpu.Device
	var err error
	if backend == "" {
		d, err = gpu.Open()
	} else {
		d, err = gpu.OpenBackend(schema.Backend(backend))
	}
	if err != nil {
		return err
	}
	defer d.Close()
	info := d.Info()
	rows, err := tunebench.Compare(d, matmul.Family, matmul.Family.Shapes, sweeps, func(r tunebench.Row) {
		fmt.Fprintf(os.Stderr, "%s: tuned %s, the sweep's best %s (%.3f), %v\n", r.Shape, tune.Short(r.Tuned), tune.Short(r.Best), r.Ratio(), r.Cost.Round(time.Millisecond))
	})
	if err != nil {
		return err
	}
	tunebench.Print(os.Stdout, fmt.Sprintf("%s %q (%s)", info.Backend, info.Name, strings.TrimSpace(info.Software+" "+info.Driver)), rows)
	return nil
}
