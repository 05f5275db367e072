// Command replay replays a corpus of recorded launches (package
// gpu/corpus) through the reference runner and prints a verdict per
// launch that fails, per hold, and a summary. `xpu replay` runs it, as
// does
//
//	go run github.com/goxpu/xpu/cmd/xpu/replay [-v] [-holds file] dir
//
// -v prints every launch's verdict; -holds reads the holds from file in
// place of the corpus's holds.json. The exit status is 0 when every
// launch agrees with its reference (within its kernel's hold) and no
// hold is stale, 1 otherwise, 2 on a usage error.
//
// A program replays only the kernels it links: this one links the
// kernel library's (package kernels and the packages under it) and the
// suites' (kernels/conformance, kernels/wave). A launch of another
// kernel is refused as missing; a program that links its own kernels
// replays them by calling corpus.Replay, from a test or a main of its
// own. It is a program of its own, not a part of cmd/xpu, because it
// links the runtime and its drivers, which the generator must not.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/goxpu/xpu/gpu/corpus"

	_ "github.com/goxpu/xpu/kernels"
	_ "github.com/goxpu/xpu/kernels/conformance"
	_ "github.com/goxpu/xpu/kernels/wave"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("xpu replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	all := fs.Bool("v", false, "print every launch's verdict, not only the failures")
	holdsFile := fs.String("holds", "", "read the holds from this file in place of the corpus's "+corpus.HoldsFile)
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintf(stderr, "usage: xpu replay [-v] [-holds file] dir\n")
		return 2
	}
	var o corpus.Options
	if *holdsFile != "" {
		hs, err := corpus.ReadHolds(*holdsFile)
		if err != nil {
			fmt.Fprintf(stderr, "xpu replay: %v\n", err)
			return 1
		}
		o.Holds = hs
	}
	r, err := corpus.Replay(fs.Arg(0), o)
	if err != nil {
		fmt.Fprintf(stderr, "xpu replay: %v\n", err)
		return 1
	}
	if err := r.Print(stdout, *all); err != nil {
		fmt.Fprintf(stderr, "xpu replay: %v\n", err)
		return 1
	}
	if r.Err() != nil {
		return 1
	}
	return 0
}
