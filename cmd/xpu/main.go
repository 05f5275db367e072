// Command xpu is the xpu toolchain.
//
// Usage:
//
//	xpu gen       generate xpu_gen.go for the kernel package in the current directory
//	xpu devices   list the devices of every backend present (runs cmd/xpu/devices)
//	xpu manifest <importpath>.<Kernel>
//	              print the kernel's manifest per backend: identity, footprint,
//	              buffer access modes, wave width and tier (or, where a device
//	              picks the tier, each wave variant and its hash), native operations
//	xpu bench cpu measure the CPU backend beside its reference points
//	              (runs bench/cpubench/cmd/cpubench)
//	xpu tune [-store dir] [-backend name] packages...
//	              tune the kernel families the packages register over their
//	              shapes: per shape the survivors, the verdicts of the pruned,
//	              the winner and its margin; the choices go to the store
//	xpu tune -show
//	              print the store's entries
//	xpu replay [-v] [-holds file] dir [packages]
//	              replay the launches a program recorded (XPU_RECORD=dir)
//	              through the reference runner: a verdict per launch that
//	              fails and per hold, in a program that links the library's
//	              and the suites' kernels (cmd/xpu/replay) and those of the
//	              packages named
//	xpu trace [-svg out.svg] trace.json
//	              summarize a trace a program wrote (gpu/trace.Chrome): the
//	              time of each kernel, host call, flush and wait, then the
//	              adapters, fallbacks, refusals and faults; -svg draws its tracks
//
// A kernel package runs the generator from go generate, as a tool of its
// module (go get -tool github.com/goxpu/xpu/cmd/xpu):
//
//	//go:generate go tool xpu gen
//
// The packages of this module run it as go run github.com/goxpu/xpu/cmd/xpu gen.
//
// Errors go to standard error. The exit status is 0 on success, 1 when a
// command fails and 2 on a usage error. devices, replay, bench and tune build
// and run a program of their own (programs.go, tune.go), whose exit status
// is xpu's.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order usage shows them.
var commands = []command{
	{name: "gen", summary: "generate xpu_gen.go for the kernel package in the current directory", run: runGen},
	{name: "devices", summary: "list the devices of every backend present", run: runDevices},
	{name: "manifest", summary: "print a kernel's manifests (xpu manifest <importpath>.<Kernel>)", run: runManifest},
	{name: "bench", summary: "measure a backend's kernels beside their reference points (xpu bench cpu)", run: runBench},
	{name: "tune", summary: "tune packages' kernel families and write the store (xpu tune [-store dir] [-backend b] pkgs; xpu tune -show)", run: runTune},
	{name: "replay", summary: "replay recorded launches through the reference runner (xpu replay [-v] [-holds file] dir [packages])", run: runReplay},
	{name: "trace", summary: "summarize a program's trace and draw it (xpu trace [-svg out.svg] trace.json)", run: runTrace},
}

// errUsage is wrapped by errors that call for the usage text.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		var status exitStatus
		switch {
		case err == nil:
			return 0
		case errors.As(err, &status):
			return int(status)
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "xpu %s: %v\n", c.name, err)
			usage(stderr)
			return 2
		default:
			fmt.Fprintf(stderr, "xpu %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "xpu: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

// usage prints the usage text.
func usage(w io.Writer) {
	fmt.Fprintf(w, "usage: xpu <command> [arguments]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
}
