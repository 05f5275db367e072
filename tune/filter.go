package tune

// This file is the feasibility filter: each member's facts on a device,
// at a problem's exact shape, against the device's limits. Its rules are
// a table, each a need and a limit; a fact a device or backend does not
// report prunes nothing.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/schema"
)

// DeviceFacts are what the filter knows of a device: its key and its
// limits, as its driver reports them (a zero limit is not reported).
type DeviceFacts struct {
	Key    gpu.DeviceKey
	Limits gpu.Limits
}

// FactsOf returns the facts of d.
func FactsOf(d *gpu.Device) DeviceFacts {
	return DeviceFacts{Key: d.Key(), Limits: d.Info().Limits}
}

// A Candidate is one member as the filter sees it on one device at one
// problem.
type Candidate struct {
	Kernel *gpu.Kernel
	// Unavailable says why the device runs none of the member's code: a
	// member with no code (its requires clause failed: gpu.ErrRefused),
	// none for the backend, no variant for the device's wave widths, a
	// wave kernel that would run its scalar twin. Nil when it runs one.
	Unavailable error
	// Manifest is the device's view of the code it runs
	// (gpu.Device.Manifest): its tier and width, and on a native tier its
	// registers and spills. Nil when Unavailable.
	Manifest *schema.Manifest
	// Need is what the member needs at the problem's shape.
	Need Need
}

// candidatesOn returns the candidates of members on d at problem p, with
// need giving each one's Need (nil: none).
func candidatesOn(d *gpu.Device, members []*gpu.Kernel, need func(k *gpu.Kernel) Need) []Candidate {
	cs := make([]Candidate, len(members))
	for i, k := range members {
		c := Candidate{Kernel: k}
		if _, err := d.KernelAvailable(k); err != nil && !errors.Is(err, gpu.ErrLimits) {
			c.Unavailable = err
		} else if m, ok := d.Manifest(k); ok {
			c.Manifest = m
		} else {
			_, err := d.KernelWave(k)
			c.Unavailable = fmt.Errorf("gpu: kernel %s: no device manifest: %w", k.Name(), err)
		}
		if need != nil && c.Unavailable == nil {
			c.Need = need(k)
		}
		cs[i] = c
	}
	return cs
}

// A Verdict is why the filter pruned one member: the rule, and where the
// rule compares sizes, the member's need and the device's limit.
type Verdict struct {
	Member string // the kernel's name
	// Rule is one of "refused", "no code", "wave width", "wave tier"
	// (the member could not run at all; Reason says why), a limit of
	// gpu.Excess ("threads per block", "block X", "shared bytes",
	// "storage buffers", "uniform bytes", "registers per block"),
	// "groups X" (Y, Z), "buffer bytes", or "spill bytes" (a member that
	// spills, pruned for one that does not).
	Rule        string
	Need, Limit uint64
	Reason      string // the refusal, for the rules without sizes
}

func (v Verdict) String() string {
	if v.Reason != "" {
		return fmt.Sprintf("%s: %s: %s", Short(v.Member), v.Rule, v.Reason)
	}
	return fmt.Sprintf("%s: %s %d exceeds the device's %d", Short(v.Member), v.Rule, v.Need, v.Limit)
}

// Short returns a kernel's name without its import path: "Tiled64"
// for "example.com/linalg.Tiled64".
func Short(name string) string {
	return name[strings.LastIndexByte(name, '.')+1:]
}

// Shorts returns the names without their import paths.
func Shorts(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Short(n)
	}
	return out
}

// unavailable returns the verdict on a candidate that cannot run.
func unavailable(c Candidate) Verdict {
	v := Verdict{Member: c.Kernel.Name(), Rule: "no code", Reason: c.Unavailable.Error()}
	switch {
	case c.Kernel.Refused() != "":
		v.Rule = "refused"
	case errors.Is(c.Unavailable, gpu.ErrWaveWidth):
		v.Rule = "wave width"
	case errors.Is(c.Unavailable, gpu.ErrScalarTwin):
		v.Rule = "wave tier"
	}
	return v
}

// shapeRules are the rules at a problem's shape, beyond the code's
// footprint: each returns the need and the limit, 0 where not known.
var shapeRules = []struct {
	rule  string
	check func(c Candidate, lim gpu.Limits) (need, limit uint64)
}{
	{"groups X", func(c Candidate, lim gpu.Limits) (uint64, uint64) {
		return uint64(c.Need.Groups.X), uint64(lim.Grid().X)
	}},
	{"groups Y", func(c Candidate, lim gpu.Limits) (uint64, uint64) {
		return uint64(c.Need.Groups.Y), uint64(lim.Grid().Y)
	}},
	{"groups Z", func(c Candidate, lim gpu.Limits) (uint64, uint64) {
		return uint64(c.Need.Groups.Z), uint64(lim.Grid().Z)
	}},
	{"buffer bytes", func(c Candidate, lim gpu.Limits) (uint64, uint64) {
		return c.Need.BufferBytes, lim.MaxStorageBufferBytes
	}},
}

// Filter returns the candidates that can run on a device with facts dev,
// in their order, and a verdict on each one it prunes: a member that
// cannot run at all, whose code (with its dynamic shared memory) exceeds
// a limit, whose grid or buffers exceed one at the problem's shape, or
// that spills registers where another survivor does not.
func Filter(dev DeviceFacts, cands []Candidate) (survivors []Candidate, pruned []Verdict) {
	for _, c := range cands {
		if v, ok := verdict(dev, c); ok {
			pruned = append(pruned, v)
		} else {
			survivors = append(survivors, c)
		}
	}
	// A spill is a cost, not an impossibility: it prunes a member only
	// for another that does not spill.
	spills := func(c Candidate) uint64 {
		if c.Manifest == nil || c.Manifest.SpillBytes == nil {
			return 0
		}
		return uint64(max(*c.Manifest.SpillBytes, 0))
	}
	var clean []Candidate
	for _, c := range survivors {
		if spills(c) == 0 {
			clean = append(clean, c)
		}
	}
	if len(clean) > 0 && len(clean) < len(survivors) {
		for _, c := range survivors {
			if n := spills(c); n > 0 {
				pruned = append(pruned, Verdict{Member: c.Kernel.Name(), Rule: "spill bytes", Need: n, Limit: 0})
			}
		}
		survivors = clean
	}
	return survivors, pruned
}

// verdict returns the verdict on c, and whether c is pruned.
func verdict(dev DeviceFacts, c Candidate) (Verdict, bool) {
	name := c.Kernel.Name()
	if c.Unavailable != nil || c.Manifest == nil {
		if c.Unavailable == nil {
			c.Unavailable = errors.New("no manifest")
		}
		return unavailable(c), true
	}
	m := *c.Manifest
	m.SharedBytes += c.Need.DynamicSharedBytes
	if ex := gpu.Exceeds(&m, dev.Limits); len(ex) > 0 {
		return Verdict{Member: name, Rule: ex[0].Limit, Need: ex[0].Need, Limit: ex[0].Have}, true
	}
	for _, r := range shapeRules {
		if need, limit := r.check(c, dev.Limits); limit != 0 && need > limit {
			return Verdict{Member: name, Rule: r.rule, Need: need, Limit: limit}, true
		}
	}
	return Verdict{}, false
}

// ErrInfeasible is wrapped by the error of a problem that no member of
// its family can run on a device.
var ErrInfeasible = errors.New("no member of the family fits the device")

// A RefusalError is a problem that no member of its family can run on a
// device: every member's verdict.
type RefusalError struct {
	Family   string
	Key      Key
	Device   gpu.DeviceKey
	Verdicts []Verdict
}

func (e *RefusalError) Error() string {
	vs := make([]string, len(e.Verdicts))
	for i, v := range e.Verdicts {
		vs[i] = v.String()
	}
	return fmt.Sprintf("tune: [tune-infeasible] family %s, problem %s, on %s %q: %v: %s",
		e.Family, e.Key, e.Device.Backend, e.Device.Name, ErrInfeasible, strings.Join(vs, "; "))
}

func (e *RefusalError) Unwrap() error { return ErrInfeasible }
