package gputest

import "github.com/goxpu/xpu/gpu"

// Tally is a census record of its own, for tests of the findings: the
// process's record (the one Run records into) is not theirs to change.
type Tally struct{ c *census }

// NewTally returns an empty record.
func NewTally() Tally { return Tally{&census{by: map[string]map[string]bool{}}} }

// Record notes that kernel was value-checked on backend.
func (t Tally) Record(backend, kernel string) { t.c.record(backend, kernel) }

// Findings returns the record's findings for the kernels of pkg.
func (t Tally) Findings(kernels []*gpu.Kernel, pkg string, excused map[string]string) []string {
	return t.c.findings(kernels, pkg, excused)
}
