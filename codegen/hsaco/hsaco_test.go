package hsaco

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu/codegen/sidecar"
)

// build is one code object the tests build: the kernels of one of
// testdata's IR files compiled by llc for a processor and a wave width
// and linked by ld.lld into a shared object, with llc's assembly listing.
type build struct {
	file, cpu, attr string
	wave            int
	obj             []byte
	asm             string
}

// configs are the targets the tests build for.
var configs = []struct {
	cpu, attr string
	wave      int
}{
	{"gfx90a", "+wavefrontsize64", 64},
	{"gfx1100", "+wavefrontsize32", 32},
	{"gfx1100", "+wavefrontsize64", 64},
}

// irFiles are the kernels' sources.
var irFiles = []string{"add.ll", "spill.ll"}

// flatSize is each kernel's "amdgpu-flat-work-group-size" maximum in its
// IR, 1024 (LLVM's default) where it sets none.
var flatSize = map[string]int{"add": 1024, "shared": 256, "spill": 256}

var built struct {
	once   sync.Once
	objs   []build
	merged []byte // the objects of both IR files linked into one
	rel    []byte // an object llc wrote, not linked
	err    error
}

// requires reports whether XPU_REQUIRE's comma list names name.
func requires(name string) bool {
	for _, n := range strings.Split(os.Getenv("XPU_REQUIRE"), ",") {
		if strings.TrimSpace(n) == name {
			return true
		}
	}
	return false
}

// objects builds the test's code objects, once; it skips t without the
// LLVM 19 tools unless XPU_REQUIRE names llvm-host.
func objects(t testing.TB) []build {
	t.Helper()
	tools, err := sidecar.Find(context.Background())
	if errors.Is(err, sidecar.ErrNotFound) && !requires("llvm-host") {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	built.once.Do(func() { built.err = buildAll(tools) })
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.objs
}

func buildAll(tools *sidecar.Tools) error {
	dir, err := os.MkdirTemp("", "hsaco")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	link := func(out string, objs ...string) ([]byte, error) {
		if msg, err := exec.Command(tools.Lld, append([]string{"-shared", "-o", out}, objs...)...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("ld.lld: %v\n%s", err, msg)
		}
		return os.ReadFile(out)
	}
	for i, c := range configs {
		var dotOs []string
		for _, f := range irFiles {
			b := build{file: f, cpu: c.cpu, attr: c.attr, wave: c.wave}
			args := []string{"-O3", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + c.cpu, "-mattr=" + c.attr, filepath.Join("testdata", f)}
			o := filepath.Join(dir, fmt.Sprintf("%d.%s.o", i, f))
			if msg, err := exec.Command(tools.Llc, append(args, "-filetype=obj", "-o", o)...).CombinedOutput(); err != nil {
				return fmt.Errorf("llc: %v\n%s", err, msg)
			}
			asm, err := exec.Command(tools.Llc, append(args, "-filetype=asm", "-o", "-")...).Output()
			if err != nil {
				return fmt.Errorf("llc -filetype=asm: %v", err)
			}
			b.asm = string(asm)
			if b.obj, err = link(o+".so", o); err != nil {
				return err
			}
			built.objs = append(built.objs, b)
			dotOs = append(dotOs, o)
		}
		if i == 0 {
			if built.rel, err = os.ReadFile(dotOs[0]); err != nil {
				return err
			}
			if built.merged, err = link(filepath.Join(dir, "merged.so"), dotOs...); err != nil {
				return err
			}
		}
	}
	return nil
}

// listed is what llc's assembly listing says of one kernel: the
// comments after its function ("; NumVgprs: 4"), its .amdhsa_kernel
// directives, and the keys of its entry in the listing's metadata
// (YAML), each by name.
type listed map[string]string

var (
	labelRe   = regexp.MustCompile(`^([A-Za-z_][\w.]*):\s+; @`)
	commentRe = regexp.MustCompile(`^; (\w+): (\d+)`)
	directRe  = regexp.MustCompile(`^\s+\.amdhsa_(\w+) (\d+)$`)
	kernelRe  = regexp.MustCompile(`^\s+\.amdhsa_kernel (\S+)$`)
	yamlRe    = regexp.MustCompile(`^  (?:- |  )(\.\w+):\s+(\S+)$`)
)

// listing reads the facts of every kernel of an assembly listing.
func listing(asm string) map[string]listed {
	kernels := map[string]listed{}
	at := func(name string) listed {
		if kernels[name] == nil {
			kernels[name] = listed{}
		}
		return kernels[name]
	}
	var fn, kd string
	var yaml listed
	inMeta := false
	sc := bufio.NewScanner(strings.NewReader(asm))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "\t.amdgpu_metadata"):
			inMeta = true
		case strings.HasPrefix(line, "\t.end_amdgpu_metadata"):
			inMeta = false
		case inMeta:
			m := yamlRe.FindStringSubmatch(line)
			if strings.HasPrefix(line, "  - .") {
				yaml = listed{}
			}
			if m != nil && yaml != nil {
				yaml[m[1]] = m[2]
				if m[1] == ".name" {
					for k, v := range yaml {
						at(m[2])["yaml"+k] = v
					}
					yaml = at(m[2])
				} else if n := yaml["yaml.name"]; n != "" {
					at(n)["yaml"+m[1]] = m[2]
				} else {
					yaml[m[1]] = m[2]
				}
			}
		case labelRe.MatchString(line):
			fn = labelRe.FindStringSubmatch(line)[1]
		case kernelRe.MatchString(line):
			kd = kernelRe.FindStringSubmatch(line)[1]
		case strings.HasPrefix(line, "\t.end_amdhsa_kernel"):
			kd = ""
		case commentRe.MatchString(line) && fn != "":
			m := commentRe.FindStringSubmatch(line)
			at(fn)[m[1]] = m[2]
		case directRe.MatchString(line) && kd != "":
			m := directRe.FindStringSubmatch(line)
			at(kd)["."+m[1]] = m[2]
		}
	}
	return kernels
}

// TestFacts checks each kernel's facts against llc's listing of it.
func TestFacts(t *testing.T) {
	for _, b := range objects(t) {
		t.Run(b.file+"/"+b.cpu+b.attr, func(t *testing.T) {
			o, err := Read(b.obj)
			if err != nil {
				t.Fatal(err)
			}
			if o.Target.Processor != b.cpu || o.Target.Triple != "amdgcn-amd-amdhsa" || o.Version != [2]int{1, 2} {
				t.Errorf("target %v version %v; built for %s, code object version 5", o.Target, o.Version, b.cpu)
			}
			want := map[string]listed{}
			for name, l := range listing(b.asm) {
				if l["yaml.name"] != "" {
					want[name] = l
				}
			}
			if len(o.Kernels) != len(want) {
				t.Fatalf("%d kernels; the listings have %d: %v", len(o.Kernels), len(want), want)
			}
			for name, l := range want {
				k, ok := o.Kernel(name)
				if !ok {
					t.Fatalf("no kernel %s", name)
				}
				checkKernel(t, b, k, l)
			}
		})
	}
}

func checkKernel(t *testing.T, b build, k *Kernel, l listed) {
	t.Helper()
	num := func(key string) *int {
		v, ok := l[key]
		if !ok {
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("%s: listing %s = %q", k.Name, key, v)
		}
		return &n
	}
	// On gfx90a the note's VGPRs are the unified file's, AGPRs
	// included: the listing's total.
	vgprs := num("TotalNumVgprs")
	if vgprs == nil {
		vgprs = num("NumVgprs")
	}
	wave := 64
	if w := num(".wavefront_size32"); w != nil && *w == 1 {
		wave = 32
	}
	flat := flatSize[k.Name]
	for _, f := range []struct {
		what      string
		got, want *int
	}{
		{"VGPRs", k.VGPRs, vgprs},
		{"SGPRs", k.SGPRs, num("NumSgprs")},
		{"AGPRs", k.AGPRs, num("NumAgprs")},
		{"private segment", k.PrivateSegmentBytes, num("ScratchSize")},
		{"private segment (directive)", k.PrivateSegmentBytes, num(".private_segment_fixed_size")},
		{"group segment", k.GroupSegmentBytes, num(".group_segment_fixed_size")},
		{"kernarg segment", k.KernargSegmentBytes, num(".kernarg_size")},
		{"VGPR spills", k.VGPRSpills, num("yaml.vgpr_spill_count")},
		{"SGPR spills", k.SGPRSpills, num("yaml.sgpr_spill_count")},
		{"wave", k.WavefrontSize, &wave},
		{"wave (built)", k.WavefrontSize, &b.wave},
		{"max flat workgroup", k.MaxFlatWorkgroup, &flat},
	} {
		switch {
		case f.want == nil && f.got != nil:
			t.Errorf("%s: %s %d; the listing states none", k.Name, f.what, *f.got)
		case f.want != nil && f.got == nil:
			t.Errorf("%s: no %s; the listing states %d", k.Name, f.what, *f.want)
		case f.want != nil && *f.got != *f.want:
			t.Errorf("%s: %s %d; the listing states %d", k.Name, f.what, *f.got, *f.want)
		}
	}
	if k.Symbol != k.Name+".kd" {
		t.Errorf("%s: descriptor %q", k.Name, k.Symbol)
	}
	t.Logf("%s: %d VGPRs, %d SGPRs, %d VGPR spills, %d private bytes", k.Name, *k.VGPRs, *k.SGPRs, *k.VGPRSpills, *k.PrivateSegmentBytes)
}

// TestSpillGate checks the gate on the built kernels: the spilling one
// fails, naming itself and its spills as the listing counts them; the
// others pass.
func TestSpillGate(t *testing.T) {
	for _, b := range objects(t) {
		o, err := Read(b.obj)
		if err != nil {
			t.Fatal(err)
		}
		spills := listing(b.asm)["spill"]
		for _, k := range o.Kernels {
			err := Spill(&k, 0)
			if k.Name != "spill" {
				if err != nil {
					t.Errorf("%s %s: %v", b.cpu, k.Name, err)
				}
				continue
			}
			var se *SpillError
			if !errors.As(err, &se) {
				t.Fatalf("%s spill: %v, want a *SpillError", b.cpu, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "[xpu-kernel-spill] kernel spill: ") || strconv.Itoa(se.VGPRSpills) != spills["yaml.vgpr_spill_count"] ||
				se.VGPRSpills == 0 || !strings.Contains(msg, "VGPR spills "+spills["yaml.vgpr_spill_count"]) ||
				!strings.Contains(msg, "private segment "+spills["ScratchSize"]+" bytes") {
				t.Errorf("%s: %q (%+v); the listing: %v", b.cpu, msg, se, spills)
			}
		}
	}
}

// TestSpillGateAbsent checks that a kernel whose note lacks a count the
// gate reads fails by that fact's name, not as a kernel that spills
// nothing.
func TestSpillGateAbsent(t *testing.T) {
	zero := 0
	k := Kernel{Name: "k", VGPRSpills: &zero, PrivateSegmentBytes: &zero}
	err := Spill(&k, 0)
	var se *SpillError
	if err == nil || errors.As(err, &se) || !strings.Contains(err.Error(), ".sgpr_spill_count") {
		t.Fatalf("%v", err)
	}
	k.SGPRSpills = &zero
	if err := Spill(&k, 0); err != nil {
		t.Fatal(err)
	}
	five := 5
	k.SGPRSpills = &five
	if err := Spill(&k, 0); err != nil {
		t.Fatalf("scalar spills to vector lanes, no memory: %v", err)
	}
	sixteen := 16
	k.PrivateSegmentBytes = &sixteen
	if err := Spill(&k, 16); err != nil {
		t.Fatalf("a private segment its variables take: %v", err)
	}
	if err := Spill(&k, 8); !errors.As(err, &se) || !strings.Contains(err.Error(), "private segment 16 bytes") || !strings.Contains(err.Error(), "at most 8") {
		t.Fatalf("a private segment beyond its variables: %v", err)
	}
	yes := true
	k.DynamicStack = &yes
	if err := Spill(&k, 16); !errors.As(err, &se) || !strings.Contains(err.Error(), "dynamic stack") {
		t.Fatal(err)
	}
}

// TestRefusals checks that what is not an AMDGPU code object is an error
// naming the rule it breaks.
func TestRefusals(t *testing.T) {
	b := objects(t)[0]
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	host, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	noMach := bytes.Clone(b.obj)
	noMach[48] = 0 // EF_AMDGPU_MACH
	xnackOn := bytes.Clone(b.obj)
	xnackOn[49] |= 0x3 // xnack on, which the target ID does not state
	v3 := bytes.Clone(b.obj)
	v3[8] = 1 // EI_ABIVERSION of code object version 3
	noNote := bytes.Clone(b.obj)
	f, err := elf.NewFile(bytes.NewReader(b.obj))
	if err != nil {
		t.Fatal(err)
	}
	sec := f.Section(".note")
	copy(noNote[sec.Offset+8:], []byte{0xff, 0, 0, 0}) // the note's type
	for _, c := range []struct {
		why  string
		obj  []byte
		says string
	}{
		{"empty", nil, "not an ELF"},
		{"text", []byte("amdgcn-amd-amdhsa--gfx90a"), "not an ELF"},
		{"the host's executable", host, "EM_AMDGPU"},
		{"no processor", noMach, "EF_AMDGPU_MACH"},
		{"code object version 3", v3, "version 3 or older"},
		{"xnack on in e_flags", xnackOn, "disagrees with e_flags"},
		{"no metadata note", noNote, "no NT_AMDGPU_METADATA"},
		// Each object's note lists its kernels; a loader reads one.
		{"two objects linked into one", built.merged, "two NT_AMDGPU_METADATA notes"},
		{"an object not linked", built.rel, "ET_DYN"},
	} {
		_, err := Read(c.obj)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error saying %q", c.why, err, c.says)
		}
	}
}

// TestTruncated checks that every prefix of an object is refused, none
// panics.
func TestTruncated(t *testing.T) {
	for _, b := range objects(t) {
		step := max(1, len(b.obj)/500)
		for n := 0; n < len(b.obj); n += step {
			if _, err := Read(b.obj[:n]); err == nil {
				t.Errorf("%s: %d of %d bytes read as an object", b.cpu, n, len(b.obj))
			}
		}
	}
}

func TestParseTarget(t *testing.T) {
	for _, id := range []string{"amdgcn-amd-amdhsa--gfx90a", "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx1100"} {
		tg, err := ParseTarget(id)
		if err != nil || tg.String() != id {
			t.Errorf("%q: %v %v", id, tg, err)
		}
	}
	for _, id := range []string{"", "gfx90a", "amdgcn-amd-amdhsa--", "x86_64-unknown-linux--gfx90a", "amdgcn-amd-amdhsa--gfx90a:xnack", "amdgcn-amd-amdhsa--gfx90a::"} {
		if _, err := ParseTarget(id); err == nil {
			t.Errorf("%q parsed", id)
		}
	}
	tg, _ := ParseTarget("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-")
	if err := tg.agrees(0x3f | efSrameccOn | efXnackOff); err != nil {
		t.Error(err)
	}
	if err := tg.agrees(0x3f | efSrameccAny | efXnackOff); err == nil {
		t.Error("sramecc+ agrees with sramecc any")
	}
}
