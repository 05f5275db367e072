// Package replaycmd is the body of the replay program: cmd/xpu/replay,
// and the program `xpu replay dir packages...` writes to link a module's
// own kernel packages beside these. It links the kernels every replay
// program replays: the kernel library's (package kernels and the
// packages it imports) and the suites' (kernels/conformance,
// kernels/wave).
//
// Layering: replaycmd imports the corpus and the kernel packages it
// links; only programs import it.
package replaycmd

import (
	"flag"
	"fmt"
	"io"

	"github.com/goxpu/xpu/gpu/corpus"

	_ "github.com/goxpu/xpu/kernels"
	_ "github.com/goxpu/xpu/kernels/conformance"
	_ "github.com/goxpu/xpu/kernels/wave"
)

// Main runs `replay [-v] [-holds file] dir` and returns the exit status:
// 0 when every launch agrees with its reference (within its kernel's
// hold) and no hold is stale, 1 otherwise, 2 on a usage error.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("xpu replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	all := fs.Bool("v", false, "print every launch's verdict, not only the failures")
	holdsFile := fs.String("holds", "", "read the holds from this file in place of the corpus's "+corpus.HoldsFile)
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintf(stderr, "usage: xpu replay [-v] [-holds file] dir [packages]\n")
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
