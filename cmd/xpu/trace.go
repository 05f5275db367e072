package main

// This file implements `xpu trace`.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/goxpu/xpu/gpu/trace"
)

// runTrace reads a Chrome trace a program wrote (gpu/trace.Chrome),
// prints what its spans took per kernel, host call, flush and wait, and
// the instants (adapters, fallbacks, refusals, faults), and with -svg
// draws its tracks.
func runTrace(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("xpu trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	svg := fs.String("svg", "", "draw the trace's tracks into this SVG file")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: xpu trace [-svg out.svg] trace.json", errUsage)
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	es, err := trace.Read(f)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	w := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintf(w, "%d events\n\nname\tcount\ttime\tmean\n", len(es))
	for _, t := range trace.Totals(es) {
		fmt.Fprintf(w, "%s\t%d\t%v\t%v\n", t.Name, t.Count, t.Time.Round(time.Microsecond), (t.Time / time.Duration(t.Count)).Round(10*time.Nanosecond))
	}
	for _, e := range es {
		switch e.Kind {
		case trace.Adapter, trace.Fallback, trace.Refusal, trace.Fault:
			fmt.Fprintf(w, "%s: %s: %s\n", e.Kind, e.Name, e.Detail)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if *svg == "" {
		return nil
	}
	out, err := os.Create(*svg)
	if err != nil {
		return err
	}
	if err := trace.DrawSVG(out, es); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
