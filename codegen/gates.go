package codegen

// This file implements the build gates: a kernel that produced no code
// for a backend the build declares fails generation by name, unless an
// excuse names it; an excuse no longer needed fails it too.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/schema"
)

// The rules of the build gates, as their errors name them.
const (
	// RuleKernelSkipped: a kernel has no code for a declared backend.
	RuleKernelSkipped = "xpu-kernel-skipped"
	// RuleKernelSpill: a native-tier kernel spills registers. Reserved:
	// no tier of this generator reports spills yet.
	RuleKernelSpill = "xpu-kernel-spill"
	// RuleStaleExcuse: an excuse names a kernel that needs none.
	RuleStaleExcuse = "xpu-stale-excuse"
)

// ExcusesFile is the file of a kernel package that excuses kernels from
// the gates. Each line that is not blank or a # comment reads
//
//	Kernel backend reason...
//
// e.g. `BreakOut cpu the Go lowering cannot leave a barrier loop early`.
const ExcusesFile = "xpu.excuses"

// GatesEnv is the environment variable that, set to "warn", demotes the
// gates' errors (not stale excuses) to warnings, for a sweep.
const GatesEnv = "XPU_GATES"

// excuse is one line of the excuses file.
type excuse struct {
	kernel  string
	backend schema.Backend
	reason  string
	line    int
	used    bool
}

// GateError is a kernel refused by a gate, or a stale excuse.
type GateError struct {
	Rule    string
	Pos     string // file:line of a stale excuse, or the kernel's position
	Kernel  string
	Backend schema.Backend
	Reason  string
}

func (e *GateError) Error() string {
	return fmt.Sprintf("%s: [%s] kernel %s, backend %s: %s", e.Pos, e.Rule, e.Kernel, e.Backend, e.Reason)
}

// gates checks ks against the declared backends, but those of ungated
// (whose tools are absent here: their excuses are neither used nor
// stale), and the excuses of the package in dir. It returns the warnings
// to print, and an error joining every gate that fails.
func gates(dir string, ks []emit.Lowered, ungated []schema.Backend) (warnings []string, err error) {
	excuses, err := readExcuses(dir)
	if err != nil {
		return nil, err
	}
	warn := os.Getenv(GatesEnv) == "warn"
	var errs []error
	for _, l := range ks {
		for _, backend := range Backends() {
			if slices.Contains(ungated, backend) {
				continue
			}
			reason := missing(&l, backend)
			i := slices.IndexFunc(excuses, func(e *excuse) bool { return e.kernel == l.Kernel.Name && e.backend == backend })
			switch {
			case reason == "" || i >= 0 && excuses[i].used:
			case i >= 0:
				excuses[i].used = true
				warnings = append(warnings, fmt.Sprintf("%s: kernel %s has no %s code, excused: %s", l.Kernel.Pos, l.Kernel.Name, backend, excuses[i].reason))
			default:
				g := &GateError{Rule: RuleKernelSkipped, Pos: l.Kernel.Pos.String(), Kernel: l.Kernel.Name, Backend: backend, Reason: reason}
				if warn {
					warnings = append(warnings, "warning: "+g.Error())
				} else {
					errs = append(errs, g)
				}
			}
		}
	}
	for _, e := range excuses {
		if !e.used && !slices.Contains(ungated, e.backend) {
			errs = append(errs, &GateError{Rule: RuleStaleExcuse, Pos: filepath.Join(dir, ExcusesFile) + ":" + strconv.Itoa(e.line),
				Kernel: e.kernel, Backend: e.backend, Reason: "the excuse is no longer needed (the kernel has code, or no such kernel): remove it"})
		}
	}
	return warnings, errors.Join(errs...)
}

// missing says why l has no code for backend, or "".
func missing(l *emit.Lowered, backend schema.Backend) string {
	if slices.ContainsFunc(l.Artifacts, func(a schema.Artifact) bool { return a.Backend == backend }) {
		return ""
	}
	var why []string
	for f, reason := range l.Refused {
		if f.Backend == backend {
			why = append(why, strings.TrimSpace(reason))
		}
	}
	if len(why) == 0 {
		return "no code"
	}
	slices.Sort(why)
	return strings.Join(why, "; ")
}

// readExcuses reads the excuses file of dir; a missing file excuses
// nothing.
func readExcuses(dir string) ([]*excuse, error) {
	path := filepath.Join(dir, ExcusesFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	var out []*excuse
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 || !slices.Contains(Backends(), schema.Backend(f[1])) {
			return nil, fmt.Errorf("%s:%d: want \"Kernel backend reason\" with backend one of %v", path, n, Backends())
		}
		reason := strings.TrimSpace(strings.SplitN(line, f[1], 2)[1])
		out = append(out, &excuse{kernel: f[0], backend: schema.Backend(f[1]), reason: reason, line: n})
	}
	return out, nil
}
