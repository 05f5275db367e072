// Command replay replays a corpus of recorded launches (package
// gpu/corpus) through the reference runner and prints a verdict per
// launch that fails, per hold, and a summary. `xpu replay dir` runs it,
// as does
//
//	go run github.com/goxpu/xpu/cmd/xpu/replay [-v] [-holds file] dir
//
// -v prints every launch's verdict; -holds reads the holds from file in
// place of the corpus's holds.json. The exit status is 0 when every
// launch agrees with its reference (within its kernel's hold) and no
// hold is stale, 1 otherwise, 2 on a usage error.
//
// A program replays only the kernels it links: this one links the
// kernel library's and the suites' (package cmd/xpu/replay/replaycmd, its
// body, says which). A launch of another kernel is refused as missing:
// `xpu replay dir packages...` links the named packages too, and a
// program or test of one's own replays its kernels by calling
// corpus.Replay. It is a program of its own, not a part of cmd/xpu,
// because it links the runtime and its drivers, which the generator must
// not.
package main

import (
	"os"

	"github.com/goxpu/xpu/cmd/xpu/replay/replaycmd"
)

func main() {
	os.Exit(replaycmd.Main(os.Args[1:], os.Stdout, os.Stderr))
}
