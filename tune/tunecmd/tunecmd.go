// Package tunecmd is the program `xpu tune` builds and runs: it tunes
// the families that the packages linked into it registered
// ([tune.Register]) over their shapes, printing per shape the survivors,
// the verdicts on the members the filter pruned, the winner and its
// margin, and writes the store; with -show it prints the store's
// entries. `xpu tune` writes a main package that imports the packages
// named on its command line and calls [Main].
//
// Layering: tunecmd is a program's body above tune and gpu; nothing
// imports it but such a main package.
package tunecmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/tune"
)

// Main runs the command line args, writing its report to stdout and its
// progress and errors to stderr, and returns the exit status: 0, 1 when
// a family could not be tuned, 2 on a usage error.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("xpu tune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	show := fs.Bool("show", false, "print the store's entries and tune nothing")
	dir := fs.String("store", "", "the store's folder (default: $"+tune.StoreEnv+", else the user cache folder's xpu/tune)")
	backend := fs.String("backend", "", "the backend to tune on (default: the one gpu.Open picks)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "xpu tune: unexpected arguments %q\n", fs.Args())
		return 2
	}
	st, err := openStore(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "xpu tune: %v\n", err)
		return 1
	}
	if *show {
		if st == nil {
			fmt.Fprintf(stderr, "xpu tune: the store is off (%s=off)\n", tune.StoreEnv)
			return 1
		}
		if err := showStore(stdout, st); err != nil {
			fmt.Fprintf(stderr, "xpu tune: %v\n", err)
			return 1
		}
		return 0
	}
	if err := tuneAll(stdout, stderr, st, *backend); err != nil {
		fmt.Fprintf(stderr, "xpu tune: %v\n", err)
		return 1
	}
	return 0
}

func openStore(dir string) (*tune.Store, error) {
	if dir != "" {
		return tune.OpenStore(dir)
	}
	return tune.DefaultStore()
}

// tuneAll tunes every registered family over its shapes on one device.
func tuneAll(stdout, stderr io.Writer, st *tune.Store, backend string) error {
	fams := tune.Registered()
	if len(fams) == 0 {
		return errors.New("no family is registered: name packages that declare one (tune.Register)")
	}
	d, err := open(backend)
	if err != nil {
		return err
	}
	defer d.Close()
	info := d.Info()
	fmt.Fprintf(stdout, "device: %s %q (%s)\n", info.Backend, info.Name, info.Driver)
	if st != nil {
		fmt.Fprintf(stdout, "store: %s\n", st.Dir())
	} else {
		fmt.Fprintf(stdout, "store: off: the choices are not kept\n")
	}
	tu := &tune.Tuner{Store: st}
	total, failed := time.Duration(0), 0
	for _, f := range fams {
		fmt.Fprintf(stdout, "\n%s\n", f.FamilyName())
		n, i := f.NumShapes(), 0
		f.TuneShapes(tu, d.Stream(), func(shape string, c *tune.Choice, err error) {
			i++
			progress(stderr, i, n, shape)
			if err != nil {
				failed++
				fmt.Fprintf(stdout, "  %s: %v\n", shape, err)
				return
			}
			total += c.Cost
			report(stdout, shape, c)
		})
	}
	fmt.Fprintf(stdout, "\ntuning cost: %v in all\n", total.Round(time.Millisecond))
	if failed > 0 {
		return fmt.Errorf("%d shapes could not be tuned", failed)
	}
	return nil
}

// open opens the device of backend, or the one gpu.Open picks.
func open(backend string) (*gpu.Device, error) {
	if backend == "" {
		return gpu.Open()
	}
	return gpu.OpenBackend(schema.Backend(backend))
}

// progress shows that done of n shapes are tuned, the last one shape: a
// bar redrawn in place on a terminal, a line per shape elsewhere.
func progress(w io.Writer, done, n int, shape string) {
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprintf(w, "\r%s %d/%d %-24s", bar(done, n, 20), done, n, shape)
			if done == n {
				fmt.Fprintln(w)
			}
			return
		}
	}
	fmt.Fprintf(w, "tuned %d/%d: %s\n", done, n, shape)
}

// bar draws a progress bar of width cells, done of n full.
func bar(done, n, width int) string {
	full := width
	if n > 0 {
		full = done * width / n
	}
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + "]"
}

// report prints one shape's choice: the survivors with their medians, the
// verdicts on the pruned, the winner, its margin and where it came from.
func report(w io.Writer, shape string, c *tune.Choice) {
	fmt.Fprintf(w, "  %s (bucket %s)\n", shape, c.Key)
	timings := map[string]tune.Timing{}
	for _, t := range c.Timings {
		timings[t.Member] = t
	}
	var surv []string
	for _, s := range c.Survivors {
		t, ok := timings[s]
		switch {
		case !ok:
			surv = append(surv, tune.Short(s))
		case t.Screened:
			surv = append(surv, fmt.Sprintf("%s ~%v (screened)", tune.Short(s), t.Median.Round(time.Microsecond/10)))
		default:
			surv = append(surv, fmt.Sprintf("%s %v", tune.Short(s), t.Median.Round(time.Microsecond/10)))
		}
	}
	fmt.Fprintf(w, "    survivors: %s\n", strings.Join(surv, ", "))
	for _, v := range c.Pruned {
		fmt.Fprintf(w, "    pruned:    %v\n", v)
	}
	how := c.Source.String()
	switch {
	case c.Source != tune.Measured:
	case len(c.Ties) > 0:
		how += ", a tie of " + strings.Join(tune.Shorts(c.Ties), " = ")
	default:
		how += fmt.Sprintf(", by %.1f%%", 100*c.Margin)
	}
	if c.Source == tune.Measured && !c.Stable {
		how += ", unstable: not stored"
	}
	if c.Saved {
		how += ", stored"
	}
	fmt.Fprintf(w, "    winner:    %s (%s; %v)\n", tune.Short(c.Chosen), how, c.Cost.Round(time.Millisecond))
	for _, n := range c.Notes {
		fmt.Fprintf(w, "    note:      %s\n", n)
	}
}

// showStore prints the store's entries, grouped by device.
func showStore(w io.Writer, st *tune.Store) error {
	es, err := st.Entries()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "store: %s: %d entries\n", st.Dir(), len(es))
	dev, fam := "\x00", "\x00"
	for _, e := range es {
		if e.Device != dev {
			dev, fam = e.Device, "\x00"
			fmt.Fprintf(w, "\n%s\n", orNone(e.Device))
		}
		if e.Family != fam {
			fam = e.Family
			fmt.Fprintf(w, "  %s\n", e.Family)
		}
		fmt.Fprintf(w, "    %-24s %-20s build %s  %s\n", e.Key, tune.Short(e.Member), e.Build, e.Detail)
	}
	return nil
}

func orNone(dev string) string {
	if dev == "" {
		return "(a device folder without its device file)"
	}
	return dev
}
