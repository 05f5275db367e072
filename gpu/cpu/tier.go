package cpu

// This file chooses the tier a kernel runs at on a CPU device: its host
// artifact (machine code through LLVM, TargetLLVMHost) when it has one
// whose instruction set level the processor holds, else its Go artifact
// (the Go lowering, TargetGo), as the device's Tier setting allows.

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/goxpu/xpu/schema"
)

// Tier is which of a kernel's artifacts a CPU device runs.
type Tier int

// The tiers.
const (
	// TierAuto: the host artifact of the widest instruction set level
	// the processor holds, else the Go artifact.
	TierAuto Tier = iota
	// TierGo: the Go artifact only.
	TierGo
	// TierHost: a host artifact only; a kernel without one the processor
	// runs is refused by name, with the reason.
	TierHost
)

// tierEnv is the environment variable Open reads the tier from.
const tierEnv = "XPU_CPU_TIER"

// String returns the tier as ParseTier reads it, "auto" for TierAuto.
func (t Tier) String() string {
	switch t {
	case TierGo:
		return string(schema.TargetGo)
	case TierHost:
		return string(schema.TargetLLVMHost)
	case TierAuto:
		return "auto"
	}
	return fmt.Sprintf("Tier(%d)", int(t))
}

// ParseTier reads a tier as XPU_CPU_TIER spells it: "go", "llvm-host",
// or "" (and "auto") for TierAuto.
func ParseTier(s string) (Tier, error) {
	switch s {
	case "", "auto":
		return TierAuto, nil
	case string(schema.TargetGo):
		return TierGo, nil
	case string(schema.TargetLLVMHost):
		return TierHost, nil
	}
	return 0, fmt.Errorf("cpu: tier %q: want %q, %q or empty (auto)", s, schema.TargetGo, schema.TargetLLVMHost)
}

// hostISAs are the instruction set levels of host code, by the Go
// architecture whose processors run it, as Selector.ISA names them: level
// l at index l, a wider level's code running on fewer processors. On
// amd64 they are the x86-64 microarchitecture levels 1 to 4 (LLVM's
// -mcpu); on arm64 armv8-a, the AArch64 baseline with Advanced SIMD
// (NEON), which every AArch64 processor has.
var hostISAs = map[string]struct {
	family string // what the levels are levels of
	names  []string
}{
	"amd64": {"x86-64", []string{1: "x86-64", 2: "x86-64-v2", 3: "x86-64-v3", 4: "x86-64-v4"}},
	"arm64": {"AArch64", []string{1: "armv8-a"}},
}

// isaNames are the levels of this architecture; isaFamily names them.
var (
	isaNames  = hostISAs[runtime.GOARCH].names
	isaFamily = hostISAs[runtime.GOARCH].family
)

// isaName names level l of this architecture; "" for 0 (none) or a level
// it does not know.
func isaName(l int) string {
	if l <= 0 || l >= len(isaNames) {
		return ""
	}
	return isaNames[l]
}

// isaLevel returns the level Selector.ISA names; ok is false for a name
// that is no level of this architecture.
func isaLevel(name string) (level int, ok bool) {
	for l, n := range isaNames {
		if l > 0 && n == name {
			return l, true
		}
	}
	return 0, false
}

// capped returns f as the facts of a processor of the host-code level
// isa: its level, and no more lanes than that level's vectors hold. It
// fails for a level this architecture does not have, or one above f's.
func (f Facts) capped(isa string) (Facts, error) {
	l, ok := isaLevel(isa)
	have := f.level()
	switch {
	case !ok:
		return f, fmt.Errorf("%q is not a level of %s host code (%s)", isa, isaFamily, strings.Join(slices.DeleteFunc(slices.Clone(isaNames), func(n string) bool { return n == "" }), ", "))
	case l > have:
		return f, fmt.Errorf("%s: the processor runs host code up to %s", isa, cmp.Or(isaName(have), "no level"))
	}
	if runtime.GOARCH == "amd64" {
		f.X64Level = l
		f.SIMD = min(f.SIMD, x64SIMD[l])
	}
	return f, nil
}

// x64SIMD is the widest SIMD each x86-64 level guarantees: v2 has
// SSE4.1, v3 AVX2 and FMA, v4 AVX-512 F.
var x64SIMD = [...]SIMD{0: SIMDNone, 1: SIMDNone, 2: SIMDSSE4, 3: SIMDAVX2FMA, 4: SIMDAVX512}

// level returns the processor's level of host code: its x86-64 level on
// amd64; on arm64 armv8-a's, where it has Advanced SIMD (AArch64 requires
// it, and Detect says so); 0 elsewhere.
func (f Facts) level() int {
	switch runtime.GOARCH {
	case "amd64":
		return f.X64Level
	case "arm64":
		if f.SIMD == SIMDNEON {
			return 1
		}
	}
	return 0
}

// hostLevel returns the widest level whose host code d runs: the
// processor's, or 0 when d runs none (TierGo, a processor without one, a
// platform without a loader).
func (d *device) hostLevel() int {
	if d.tier == TierGo || !hostLoads {
		return 0
	}
	return d.facts.level()
}

// hostArtifact returns k's host artifact that d runs: of its cpu
// llvm-host artifacts whose code this platform loads, the one of the
// widest level d runs, the first of them on a tie; nil when there is
// none.
func (d *device) hostArtifact(k *schema.Kernel) *schema.Artifact {
	var a *schema.Artifact
	have, best := d.hostLevel(), 0
	for i := range k.Artifacts {
		c := &k.Artifacts[i]
		if l, ok := isaLevel(c.Selector.ISA); ok && isHost(c) && l <= have && l > best && loadable(c.Code) {
			a, best = c, l
		}
	}
	return a
}

// noHostArtifact says why d runs none of k's host artifacts.
func (d *device) noHostArtifact(k *schema.Kernel) string {
	var needs, others []string
	foreign := 0 // artifacts whose code this platform does not load
	for i := range k.Artifacts {
		c := &k.Artifacts[i]
		switch _, ok := isaLevel(c.Selector.ISA); {
		case !isHost(c):
		case !loadable(c.Code):
			foreign++
		case ok:
			needs = append(needs, c.Selector.ISA)
		case otherArch(c.Selector.ISA) != "":
			others = append(others, c.Selector.ISA)
		default:
			needs = append(needs, fmt.Sprintf("%q (no %s level)", c.Selector.ISA, isaFamily))
		}
	}
	have := d.hostLevel()
	switch {
	case !hostLoads:
		return "this platform (" + runtime.GOOS + "/" + runtime.GOARCH + ") has no host tier"
	case d.tier == TierGo:
		return "the device runs the Go tier only"
	case len(needs) == 0 && len(others) > 0:
		return fmt.Sprintf("its llvm-host artifacts are for another architecture (%s); this is %s", strings.Join(others, ", "), runtime.GOARCH)
	case len(needs) == 0 && foreign > 0:
		return fmt.Sprintf("its llvm-host code is not %s", objectFormat)
	case len(needs) == 0:
		return "it has no llvm-host artifact"
	case have == 0:
		return fmt.Sprintf("the processor holds no %s level; its llvm-host artifacts need %s", isaFamily, strings.Join(needs, ", "))
	}
	return fmt.Sprintf("its llvm-host artifacts need %s; the processor is %s", strings.Join(needs, ", "), isaName(have))
}

// otherArch returns the Go architecture other than this one that isa is
// a level of, or "".
func otherArch(isa string) string {
	for arch, levels := range hostISAs {
		if arch != runtime.GOARCH && slices.Contains(levels.names[1:], isa) {
			return arch
		}
	}
	return ""
}

// isHost reports whether a is host code of the cpu backend.
func isHost(a *schema.Artifact) bool {
	return a.Backend == schema.BackendCPU && a.Target == schema.TargetLLVMHost
}

// goArtifact returns k's Go artifact: its first cpu artifact for any
// device that is not host code.
func goArtifact(k *schema.Kernel) *schema.Artifact {
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		if a.Backend == schema.BackendCPU && !isHost(a) && a.Selector.Holds(0, 0) {
			return a
		}
	}
	return nil
}

// hostTier is the native target whose code the device runs, llvm-host,
// and the widest level of it that it runs; both empty when it runs none
// (driver.Info's Native and ISA).
func (d *device) hostTier() (schema.Target, string) {
	if l := d.hostLevel(); l > 0 && isaName(l) != "" {
		return schema.TargetLLVMHost, isaName(l)
	}
	return "", ""
}
