package gputest

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu/gpu"
)

// The kernel census: after a test run, every kernel a package registers
// with code for a backend must have been value-checked on that backend by
// some test, or be excused by name. An uncovered kernel, or an excuse that
// is no longer needed, fails the run.

// census records the kernels value-checked, by backend.
type census struct {
	mu sync.Mutex
	by map[string]map[string]bool
}

// checked is the census of this process: [Run] records into it.
var checked = &census{by: map[string]map[string]bool{}}

// record notes that kernel was compared with the reference on backend
// (whether or not it matched: a mismatch fails its own test).
func (c *census) record(backend, kernel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by[backend] == nil {
		c.by[backend] = map[string]bool{}
	}
	c.by[backend][kernel] = true
}

// Census returns the census's findings for the kernels registered under
// the import path pkg, on every backend that value-checked any kernel in
// this process: each kernel with code for such a backend that no test
// value-checked there, unless excused maps its name (without the package)
// to a reason; and each excuse that names no such kernel, or one that was
// checked after all. Nil means the census passes.
func Census(pkg string, excused map[string]string) []string {
	return checked.findings(gpu.Kernels(), pkg, excused)
}

// RunWithCensus runs m's tests, then, when they passed and no -run filter
// chose among them, the census of pkg; it prints the findings and returns
// the exit code for os.Exit. A kernel package's TestMain calls it.
func RunWithCensus(m *testing.M, pkg string, excused map[string]string) int {
	code := m.Run()
	if code != 0 || flag.Lookup("test.run").Value.String() != "" {
		return code
	}
	for _, f := range Census(pkg, excused) {
		fmt.Fprintln(os.Stderr, "census:", f)
		code = 1
	}
	return code
}

func (c *census) findings(kernels []*gpu.Kernel, pkg string, excused map[string]string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	used := map[string]bool{}
	for _, backend := range slices.Sorted(maps.Keys(c.by)) {
		for _, k := range kernels {
			name, ok := strings.CutPrefix(k.Name(), pkg+".")
			if !ok || k.Refused() != "" {
				continue
			}
			if _, has := k.Manifest(backend); !has {
				continue
			}
			why, excuse := excused[name]
			if excuse {
				used[name] = true
			}
			switch done := c.by[backend][k.Name()]; {
			case done && excuse:
				out = append(out, fmt.Sprintf("%s: %s was value-checked on %s, but is excused (%s): remove the excuse", pkg, name, backend, why))
			case !done && !excuse:
				out = append(out, fmt.Sprintf("%s: %s has code for %s, but no test value-checked it there", pkg, name, backend))
			}
		}
	}
	if len(c.by) > 0 {
		for _, name := range slices.Sorted(maps.Keys(excused)) {
			if !used[name] {
				out = append(out, fmt.Sprintf("%s: the excuse for %s names no kernel with code: remove it", pkg, name))
			}
		}
	}
	return out
}
