package cpu

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// tieredKernel is saxpy with a Go artifact and host artifacts for
// x86-64-v3 and -v4 whose code is never loaded: these tests only choose.
func tieredKernel() *driver.Kernel {
	k := *saxpyKernel
	k.Artifacts = append([]schema.Artifact{
		hostArtifactFor("x86-64-v3", "unloaded v3"),
		hostArtifactFor("x86-64-v4", "unloaded v4"),
	}, saxpyKernel.Artifacts...)
	return &k
}

// hostArtifactFor returns a host artifact for isa whose code is rest
// after the magic number of this platform's shared objects.
func hostArtifactFor(isa, rest string) schema.Artifact {
	return schema.Artifact{
		Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetLLVMHost},
		Selector: schema.Selector{ISA: isa},
		Code:     objectMagic() + rest,
	}
}

// objectMagic is the start of a shared object of this platform; of an
// ELF object where the host tier loads none.
func objectMagic() string {
	if runtime.GOOS == "darwin" {
		return "\xcf\xfa\xed\xfe"
	}
	return "\x7fELF"
}

// TestForeignObjectIsNotRun checks that host code in another platform's
// object format (the selector names no system) is never chosen: auto
// runs the Go artifact, and the host tier says why it runs none.
func TestForeignObjectIsNotRun(t *testing.T) {
	k := *saxpyKernel
	foreign := hostArtifactFor("x86-64-v3", "")
	foreign.Code = "\xca\xfe\xba\xbe not this platform's object"
	k.Artifacts = append([]schema.Artifact{foreign}, saxpyKernel.Artifacts...)
	if a := openWith(t, TierAuto, 4).Artifact(&k); a != &k.Artifacts[1] {
		t.Errorf("auto runs %+v, want the Go artifact", a)
	}
	err := openWith(t, TierHost, 4).(driver.Refuser).Refusal(&k)
	if err == nil || hostLoads && !strings.Contains(err.Error(), "code is not an ELF shared object on linux") {
		t.Errorf("host tier: Refusal = %v, want it to name the object format", err)
	}
}

// x86Levels skips t where the processor's levels are not x86-64's, which
// the choice among levels is tested with (TestArchitectureChoice covers
// the others).
func x86Levels(t *testing.T) {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skipf("the tiers are tested with x86-64 levels; this is %s", runtime.GOARCH)
	}
}

// openWith opens a device of tier on a processor of x86-64 level level.
func openWith(t *testing.T, tier Tier, level int) driver.Device {
	t.Helper()
	f := Detect()
	f.X64Level = level
	d, err := New(Config{Facts: &f, Tier: tier, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestParseTier(t *testing.T) {
	for s, want := range map[string]Tier{"": TierAuto, "auto": TierAuto, "go": TierGo, "llvm-host": TierHost} {
		if got, err := ParseTier(s); got != want || err != nil {
			t.Errorf("ParseTier(%q) = %v, %v; want %v", s, got, err, want)
		}
		if s != "" {
			if back, _ := ParseTier(want.String()); back != want {
				t.Errorf("ParseTier(%v.String()) = %v", want, back)
			}
		}
	}
	for _, bad := range []string{"Go", "llvm", "host", " go"} {
		if _, err := ParseTier(bad); err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) {
			t.Errorf("ParseTier(%q): err = %v, want an error quoting it", bad, err)
		}
	}
}

func TestOpenReadsTier(t *testing.T) {
	t.Setenv(tierEnv, "fast")
	if _, err := Open(); err == nil || !strings.Contains(err.Error(), tierEnv) || !strings.Contains(err.Error(), `"fast"`) {
		t.Errorf("Open with %s=fast: err = %v, want an error naming the variable and the value", tierEnv, err)
	}
	t.Setenv(tierEnv, "go")
	d, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	if a := d.Artifact(tieredKernel()); a == nil || a.Target != schema.TargetGo {
		t.Errorf("%s=go runs %v, want the Go artifact", tierEnv, a)
	}
	if _, err := New(Config{Tier: TierHost + 1}); err == nil {
		t.Error("New with an unknown Config.Tier succeeded")
	}
}

// TestTierChoice checks which artifact each tier runs on processors of
// each x86-64 level: the widest host artifact that fits, else Go code.
func TestTierChoice(t *testing.T) {
	x86Levels(t)
	k := tieredKernel()
	v3, v4, goArt := &k.Artifacts[0], &k.Artifacts[1], &k.Artifacts[2]
	host := func(a *schema.Artifact) *schema.Artifact {
		if !hostLoads {
			return nil
		}
		return a
	}
	orGo := func(a *schema.Artifact) *schema.Artifact {
		if a == nil {
			return goArt
		}
		return a
	}
	cases := []struct {
		tier  Tier
		level int
		want  *schema.Artifact
	}{
		{TierAuto, 0, goArt},
		{TierAuto, 2, goArt},
		{TierAuto, 3, orGo(host(v3))},
		{TierAuto, 4, orGo(host(v4))},
		{TierGo, 4, goArt},
		{TierHost, 2, nil},
		{TierHost, 3, host(v3)},
		{TierHost, 4, host(v4)},
	}
	for _, c := range cases {
		d := openWith(t, c.tier, c.level)
		if got := d.Artifact(k); got != c.want {
			t.Errorf("tier %v, level %d: runs %+v, want %+v", c.tier, c.level, got, c.want)
		}
		if err := d.(driver.Refuser).Refusal(k); (err == nil) != (c.want != nil) {
			t.Errorf("tier %v, level %d: Refusal = %v", c.tier, c.level, err)
		}
	}
	// A kernel whose only code is Go runs at the Go tier on auto.
	if got := openWith(t, TierAuto, 4).Artifact(saxpyKernel); got != &saxpyKernel.Artifacts[0] {
		t.Errorf("a Go-only kernel on auto runs %+v", got)
	}
}

// TestHostOnlyRefusals checks that the host tier refuses, by name and
// with the reason, a kernel it has no host code for.
func TestHostOnlyRefusals(t *testing.T) {
	x86Levels(t)
	k := tieredKernel()
	v4only := *k
	v4only.Name, v4only.Artifacts = "cpu.v4only", k.Artifacts[1:]
	goOnly := *saxpyKernel
	cases := []struct {
		k     *driver.Kernel
		level int
		says  []string
	}{
		{&goOnly, 4, []string{"cpu.saxpy", "llvm-host tier only", "no llvm-host artifact"}},
		{&v4only, 3, []string{"cpu.v4only", "need x86-64-v4", "the processor is x86-64-v3"}},
		{k, 0, []string{"cpu.saxpy", "no x86-64 level"}},
	}
	for _, c := range cases {
		d := openWith(t, TierHost, c.level)
		_, err := d.Compile(c.k)
		if !errors.Is(err, ErrNoLowering) {
			t.Errorf("Compile(%s) at level %d: err = %v, want ErrNoLowering", c.k.Name, c.level, err)
			continue
		}
		says := c.says
		if !hostLoads {
			says = []string{c.k.Name, "has no host tier"}
		}
		for _, s := range says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("Compile(%s) at level %d: %v: does not say %q", c.k.Name, c.level, err, s)
			}
		}
	}
}

// TestHostTierInfo checks the fact isa (the processor's level) and
// Info's Native and ISA: which host code the device runs.
func TestHostTierInfo(t *testing.T) {
	x86Levels(t)
	for _, c := range []struct {
		tier      Tier
		level     int
		isa, runs string
	}{
		{TierAuto, 3, "x86-64-v3", "x86-64-v3"},
		{TierHost, 4, "x86-64-v4", "x86-64-v4"},
		{TierGo, 4, "x86-64-v4", ""},
		{TierAuto, 0, "", ""},
	} {
		if !hostLoads {
			c.runs = ""
		}
		info := openWith(t, c.tier, c.level).Info()
		if info.Facts["isa"] != c.isa || info.ISA != c.runs {
			t.Errorf("tier %v, level %d: fact isa %q, Info.ISA %q; want %q, %q", c.tier, c.level, info.Facts["isa"], info.ISA, c.isa, c.runs)
		}
		var native schema.Target
		if c.runs != "" {
			native = schema.TargetLLVMHost
		}
		if info.Native != native {
			t.Errorf("tier %v, level %d: Info.Native = %q, want %q", c.tier, c.level, info.Native, native)
		}
	}
}

// TestISACap checks Config.ISA and $XPU_CPU_ISA: a processor of
// x86-64-v4 capped at v3 runs the v3 artifact with AVX2's 8 lanes; a
// level above the processor's, or no level at all, fails by name.
func TestISACap(t *testing.T) {
	x86Levels(t)
	k := tieredKernel()
	f := Detect()
	f.X64Level, f.SIMD = 4, SIMDAVX512
	d, err := New(Config{Facts: &f, Tier: TierHost, ISA: "x86-64-v3", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	info := d.Info()
	if want := &k.Artifacts[0]; hostLoads && d.Artifact(k) != want {
		t.Errorf("capped at v3: runs %+v, want the v3 artifact", d.Artifact(k))
	}
	if info.Facts["isa"] != "x86-64-v3" || info.Limits.SubgroupMax != 8 || info.Facts["simd"] != "avx2+fma" {
		t.Errorf("capped at v3: isa %q, simd %q, subgroups up to %d; want x86-64-v3, avx2+fma, 8", info.Facts["isa"], info.Facts["simd"], info.Limits.SubgroupMax)
	}
	f.X64Level, f.SIMD = 3, SIMDAVX2FMA
	for isa, want := range map[string]string{"x86-64-v4": "up to x86-64-v3", "avx512": `"avx512" is not a level`} {
		if _, err := New(Config{Facts: &f, ISA: isa}); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "Config.ISA") {
			t.Errorf("ISA %q on a v3 processor: err = %v, want one saying %q", isa, err, want)
		}
	}
	t.Setenv(isaEnv, "x86-64-v9")
	if _, err := Open(); err == nil || !strings.Contains(err.Error(), isaEnv) || !strings.Contains(err.Error(), `"x86-64-v9"`) {
		t.Errorf("Open with %s=x86-64-v9: err = %v, want an error naming the variable and the value", isaEnv, err)
	}
}

// TestUnknownISAIsNotRun checks that a host artifact whose ISA is no
// x86-64 level never runs, and the refusal names it.
func TestUnknownISAIsNotRun(t *testing.T) {
	k := &driver.Kernel{Name: "cpu.arm", Block: xpu.Dim3{X: 1, Y: 1, Z: 1},
		Artifacts: []schema.Artifact{hostArtifactFor("armv9-a", "unloaded")}}
	d := openWith(t, TierHost, 4)
	if a := d.Artifact(k); a != nil {
		t.Fatalf("runs %+v", a)
	}
	if err := d.(driver.Refuser).Refusal(k); hostLoads && (err == nil || !strings.Contains(err.Error(), `"armv9-a"`)) {
		t.Errorf("Refusal = %v, want it to name the ISA", err)
	}
}

// TestArchitectureChoice checks that a device of the processor's own
// facts runs, of host artifacts for x86-64-v3 and armv8-a, the one of its
// architecture (amd64 at v3 or above, arm64), and never the other's,
// whose objects are ELF too.
func TestArchitectureChoice(t *testing.T) {
	k := *saxpyKernel
	k.Artifacts = append([]schema.Artifact{hostArtifactFor("x86-64-v3", "unloaded"), hostArtifactFor("armv8-a", "unloaded")}, saxpyKernel.Artifacts...)
	want := &k.Artifacts[2] // the Go artifact
	switch f := Detect(); {
	case !hostLoads:
	case runtime.GOARCH == "amd64" && f.X64Level >= 3:
		want = &k.Artifacts[0]
	case runtime.GOARCH == "arm64":
		want = &k.Artifacts[1]
	}
	d, err := New(Config{Tier: TierAuto, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.Artifact(&k); got != want {
		t.Errorf("%s: runs %+v, want %+v", runtime.GOARCH, got, want)
	}
	if runtime.GOARCH == "arm64" && d.Info().Facts["isa"] != "armv8-a" {
		t.Errorf("arm64: fact isa %q, want armv8-a", d.Info().Facts["isa"])
	}
	// Of the other architecture's code alone, the host tier says whose it is.
	other, isa := "armv8-a", "arm64"
	if runtime.GOARCH == "arm64" {
		other, isa = "x86-64-v3", "amd64"
	}
	k.Artifacts = append([]schema.Artifact{hostArtifactFor(other, "unloaded")}, saxpyKernel.Artifacts...)
	err = openWith(t, TierHost, 4).(driver.Refuser).Refusal(&k)
	if hostLoads && (err == nil || !strings.Contains(err.Error(), "for another architecture ("+other+")") || otherArch(other) != isa) {
		t.Errorf("another architecture's code only: Refusal = %v, want it to name %s", err, other)
	}
}

// TestHostFaultWordIsRefused checks that a host artifact whose manifest
// asks for a fault word, which host code never reads, is refused.
func TestHostFaultWordIsRefused(t *testing.T) {
	if !hostLoads {
		t.Skip("no host tier on this platform")
	}
	k := *saxpyKernel
	a := hostArtifactFor(isaNames[1], "never loaded") // the processor's architecture's narrowest level
	a.Fault = true
	k.Artifacts = []schema.Artifact{a}
	_, err := openWith(t, TierAuto, 3).Compile(&k)
	if !errors.Is(err, ErrNoLowering) || !strings.Contains(err.Error(), "sets Fault") || !strings.Contains(err.Error(), k.Name) {
		t.Errorf("Compile: err = %v, want ErrNoLowering naming the kernel and the fault word", err)
	}
}
