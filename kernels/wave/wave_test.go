package wave_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/wave"
	"github.com/goxpu/xpu/schema"
)

// TestWaveSuite runs every case on every device present, comparing with
// the reference runner told the wave width the device runs the kernel at.
func TestWaveSuite(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, wave.Cases()) })
}

// TestWaveTiers checks the tier every device runs each case's kernel at
// against the tier the design gives it (expectedTier).
func TestWaveTiers(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, c := range wave.Cases() {
			t.Run(c.Name(), func(t *testing.T) {
				choice, err := d.KernelWave(c.Kernel)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: tier %s, width %d", d.Backend(), choice.Tier, choice.Width)
				if want := expectedTier(d, c.Kernel); choice.Tier != want {
					t.Errorf("%s runs tier %q, want %q", d.Backend(), choice.Tier, want)
				}
			})
		}
	})
}

// expectedTier is the tier the design gives kernel k on device d: on a
// WebGPU device with subgroups of one size S, native for a width-agnostic
// kernel or a declared width of S, narrow below S and folded above it;
// emulated without subgroups. On the CPU backend's host tier, whose
// waves are the lanes of its vectors (S = the processor's float32
// lanes), the same: native at S, narrow at a divisor of S, folded at a
// multiple of it; on the Go tier, emulated over lanes of its own.
func expectedTier(d *gpu.Device, k *gpu.Kernel) schema.Tier {
	m, ok := k.Manifest(schema.BackendCPU)
	if !ok || !m.WaveOps {
		return ""
	}
	l := d.Info().Limits
	if d.Backend() == schema.BackendCPU && d.Info().Native == schema.TargetLLVMHost {
		switch w, s := k.Spec().Wave, l.SubgroupMin; {
		case w == 0 || w == s:
			return schema.TierNative
		case w < s && s%w == 0:
			return schema.TierNarrow
		case w > s && w%s == 0:
			return schema.TierFolded
		}
		return schema.TierEmulated
	}
	if d.Backend() != schema.BackendWebGPU || l.SubgroupMin == 0 || l.SubgroupMin != l.SubgroupMax {
		return schema.TierEmulated
	}
	switch w, s := k.Spec().Wave, l.SubgroupMin; {
	case w == 0 || w == s:
		return schema.TierNative
	case w < s:
		return schema.TierNarrow
	default:
		return schema.TierFolded
	}
}

// subgroupUse matches a subgroup builtin function or value in WGSL.
var subgroupUse = regexp.MustCompile(`\bsubgroup[A-Z]\w*\(|\bsubgroup_(size|invocation_id)\b`)

// shufflesOnly names the cases whose kernels' only verbs are shuffles:
// at the folded tier their lanes meet through workgroup memory alone, as
// in the emulated tier (codegen/wgslgen/wave.go), though the module
// enables subgroups as every folded one does.
var shufflesOnly = map[string]bool{"WarpSums": true, "BlockSums": true}

// TestVariantsEnableSubgroups checks the WGSL of every wave tier's
// artifact: one that uses a subgroup builtin opens with
// `enable subgroups;` (browsers refuse the builtins without it), the
// emulated one uses none, and the folded one reduces within subgroups
// first.
func TestVariantsEnableSubgroups(t *testing.T) {
	for _, c := range wave.Cases() {
		for _, a := range c.Kernel.Spec().Artifacts {
			if a.Target != schema.TargetWGSL || a.WaveTier == "" {
				continue
			}
			uses, enabled := subgroupUse.MatchString(a.Code), strings.HasPrefix(a.Code, "enable subgroups;")
			switch {
			case a.WaveTier == schema.TierEmulated && (uses || enabled):
				t.Errorf("%s, %s: the emulated variant uses subgroups", c.Name(), a.WaveTier)
			case a.WaveTier == schema.TierFolded && shufflesOnly[c.Name()]:
				if uses {
					t.Errorf("%s, %s: the folded shuffles use subgroup builtins", c.Name(), a.WaveTier)
				}
			case a.WaveTier != schema.TierEmulated && !uses:
				t.Errorf("%s, %s: no subgroup builtin", c.Name(), a.WaveTier)
			case uses != enabled:
				t.Errorf("%s, %s: uses subgroup builtins %v, enables subgroups %v", c.Name(), a.WaveTier, uses, enabled)
			}
			if a.WaveTier == schema.TierFolded && strings.Contains(c.Name(), "Reduce") && !strings.Contains(a.Code, "subgroupAdd(") {
				t.Errorf("%s, %s: the folded sum does not add within subgroups", c.Name(), a.WaveTier)
			}
		}
	}
}
