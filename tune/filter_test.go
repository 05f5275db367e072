package tune_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/tune"
)

// fakeDevice is a device's facts as a test states them: every limit
// reported.
func fakeDevice() tune.DeviceFacts {
	return tune.DeviceFacts{
		Key: gpu.DeviceKey{Backend: "fake", Name: "fake device"},
		Limits: gpu.Limits{
			MaxInvocationsPerBlock: 512, MaxBlockSize: xpu.Dim3{X: 256, Y: 128, Z: 64},
			MaxGroups: 65535, MaxSharedBytes: 16 << 10, MaxStorageBuffers: 8,
			MaxStorageBufferBytes: 1 << 30, MaxUniformBytes: 1 << 10, MaxRegistersPerBlock: 1 << 16,
		},
	}
}

// fits is a manifest and need that fit fakeDevice.
func fits() (*schema.Manifest, tune.Need) {
	regs, spill := 32, 0
	return &schema.Manifest{
		Block: xpu.Dim3{X: 16, Y: 16, Z: 1}, SharedBytes: 8 << 10, StorageBindings: 3, UniformBytes: 16,
		Registers: &regs, SpillBytes: &spill,
	}, tune.Need{Groups: xpu.Dim3{X: 64, Y: 64, Z: 1}, DynamicSharedBytes: 1 << 10, BufferBytes: 1 << 20}
}

// TestFilterRules checks each rule of the filter on fake facts: a
// candidate that breaks it alone is pruned with the rule, its need and
// the limit, and a device that does not report the fact prunes nothing.
func TestFilterRules(t *testing.T) {
	cases := []struct {
		rule        string
		need, limit uint64
		change      func(m *schema.Manifest, n *tune.Need)
		unreport    func(l *gpu.Limits)
	}{
		{"threads per block", 1024, 512, func(m *schema.Manifest, n *tune.Need) { m.Block = xpu.Dim3{X: 32, Y: 32, Z: 1} },
			func(l *gpu.Limits) { l.MaxInvocationsPerBlock = 0 }},
		{"block X", 300, 256, func(m *schema.Manifest, n *tune.Need) { m.Block = xpu.Dim3{X: 300, Y: 1, Z: 1} },
			func(l *gpu.Limits) { l.MaxBlockSize.X = 0 }},
		{"block Y", 129, 128, func(m *schema.Manifest, n *tune.Need) { m.Block = xpu.Dim3{X: 1, Y: 129, Z: 1} },
			func(l *gpu.Limits) { l.MaxBlockSize.Y = 0 }},
		{"block Z", 65, 64, func(m *schema.Manifest, n *tune.Need) { m.Block = xpu.Dim3{X: 1, Y: 1, Z: 65} },
			func(l *gpu.Limits) { l.MaxBlockSize.Z = 0 }},
		{"shared bytes", 17 << 10, 16 << 10, func(m *schema.Manifest, n *tune.Need) { m.SharedBytes = 16 << 10 }, // static and dynamic
			func(l *gpu.Limits) { l.MaxSharedBytes = 0 }},
		{"storage buffers", 9, 8, func(m *schema.Manifest, n *tune.Need) { m.StorageBindings, m.Fault = 8, true }, // the fault word counts
			func(l *gpu.Limits) { l.MaxStorageBuffers = 0 }},
		{"uniform bytes", 2 << 10, 1 << 10, func(m *schema.Manifest, n *tune.Need) { m.UniformBytes = 2 << 10 },
			func(l *gpu.Limits) { l.MaxUniformBytes = 0 }},
		{"registers per block", 256 * 300, 1 << 16, func(m *schema.Manifest, n *tune.Need) { r := 300; m.Registers = &r },
			func(l *gpu.Limits) { l.MaxRegistersPerBlock = 0 }},
		{"groups X", 70000, 65535, func(m *schema.Manifest, n *tune.Need) { n.Groups.X = 70000 },
			func(l *gpu.Limits) { l.MaxGroups = 0 }},
		{"groups Y", 65536, 65535, func(m *schema.Manifest, n *tune.Need) { n.Groups.Y = 65536 },
			func(l *gpu.Limits) { l.MaxGroups = 0 }},
		{"groups Z", 1 << 20, 65535, func(m *schema.Manifest, n *tune.Need) { n.Groups.Z = 1 << 20 },
			func(l *gpu.Limits) { l.MaxGroups = 0 }},
		{"buffer bytes", 2 << 30, 1 << 30, func(m *schema.Manifest, n *tune.Need) { n.BufferBytes = 2 << 30 },
			func(l *gpu.Limits) { l.MaxStorageBufferBytes = 0 }},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			good, goodNeed := fits()
			bad, badNeed := fits()
			tc.change(bad, &badNeed)
			cands := []tune.Candidate{
				{Kernel: conformance.Scale2Kernel, Manifest: good, Need: goodNeed},
				{Kernel: conformance.Scale3Kernel, Manifest: bad, Need: badNeed},
			}
			dev := fakeDevice()
			surv, pruned := tune.Filter(dev, cands)
			want := tune.Verdict{Member: conformance.Scale3Kernel.Name(), Rule: tc.rule, Need: tc.need, Limit: tc.limit}
			if len(surv) != 1 || surv[0].Kernel != conformance.Scale2Kernel || len(pruned) != 1 || pruned[0] != want {
				t.Fatalf("survivors %v, pruned %v; want Scale2 and %v", names(surv), pruned, want)
			}
			if s := pruned[0].String(); !strings.Contains(s, fmt.Sprintf("Scale3: %s %d exceeds the device's %d", tc.rule, tc.need, tc.limit)) {
				t.Errorf("verdict reads %q", s)
			}
			tc.unreport(&dev.Limits)
			if surv, pruned := tune.Filter(dev, cands); len(surv) != 2 || len(pruned) != 0 {
				t.Errorf("with the limit not reported: survivors %v, pruned %v; want both, none", names(surv), pruned)
			}
		})
	}
}

// TestFilterUnavailable checks the rules of a member that cannot run at
// all: refused by its requires clause, no code, no wave width, a scalar
// twin.
func TestFilterUnavailable(t *testing.T) {
	good, need := fits()
	for _, tc := range []struct {
		rule   string
		kernel *gpu.Kernel
		err    error
	}{
		{"refused", conformance.ScaleNegKernel, fmt.Errorf("requires: %w", gpu.ErrRefused)},
		{"no code", conformance.Scale3Kernel, fmt.Errorf("no code for the fake backend: %w", gpu.ErrNoCode)},
		{"wave width", conformance.Scale3Kernel, fmt.Errorf("wave=64: %w", gpu.ErrWaveWidth)},
		{"wave tier", conformance.Scale3Kernel, fmt.Errorf("twin: %w", gpu.ErrScalarTwin)},
	} {
		surv, pruned := tune.Filter(fakeDevice(), []tune.Candidate{
			{Kernel: tc.kernel, Unavailable: tc.err},
			{Kernel: conformance.Scale2Kernel, Manifest: good, Need: need},
		})
		if len(surv) != 1 || len(pruned) != 1 || pruned[0].Rule != tc.rule || pruned[0].Reason != tc.err.Error() || pruned[0].Member != tc.kernel.Name() {
			t.Errorf("%s: survivors %v, pruned %+v", tc.rule, names(surv), pruned)
		}
	}
}

// TestFilterSpills checks that a member that spills is pruned for one
// that does not, and kept when every member spills.
func TestFilterSpills(t *testing.T) {
	good, need := fits()
	spilling, _ := fits()
	n := 96
	spilling.SpillBytes = &n
	both := []tune.Candidate{{Kernel: conformance.Scale2Kernel, Manifest: spilling, Need: need}, {Kernel: conformance.Scale3Kernel, Manifest: good, Need: need}}
	surv, pruned := tune.Filter(fakeDevice(), both)
	want := tune.Verdict{Member: conformance.Scale2Kernel.Name(), Rule: "spill bytes", Need: 96, Limit: 0}
	if len(surv) != 1 || surv[0].Kernel != conformance.Scale3Kernel || !slices.Equal(pruned, []tune.Verdict{want}) {
		t.Errorf("survivors %v, pruned %v; want Scale3 and %v", names(surv), pruned, want)
	}
	surv, pruned = tune.Filter(fakeDevice(), both[:1])
	if len(surv) != 1 || len(pruned) != 0 {
		t.Errorf("a lone spilling member: survivors %v, pruned %v; want it kept", names(surv), pruned)
	}
}

// TestRefusal checks that a problem no member fits is refused with the
// family, the problem and every verdict, wrapping ErrInfeasible.
func TestRefusal(t *testing.T) {
	e := &tune.RefusalError{Family: "f", Key: tune.KeyOf(tune.Dim{"n", 8}), Device: fakeDevice().Key, Verdicts: []tune.Verdict{
		{Member: "p.A", Rule: "shared bytes", Need: 2, Limit: 1}, {Member: "p.B", Rule: "refused", Reason: "requires c.X > 0 is false"}}}
	msg := e.Error()
	for _, want := range []string{"[tune-infeasible]", "family f", "problem n=8", `"fake device"`, "A: shared bytes 2 exceeds the device's 1", "B: refused: requires c.X > 0 is false"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if !errors.Is(e, tune.ErrInfeasible) {
		t.Error("a refusal does not wrap ErrInfeasible")
	}
}

func names(cs []tune.Candidate) []string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Kernel.Name()
	}
	return s
}
