package gpu_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gpuimpl"
)

// tileParams is the comptime parameter of the template the tests below
// register by hand, as generated code would.
type tileParams struct{ Tile, Unroll int32 }

const tiledName = "github.com/goxpu/xpu/gpu_test.Tiled"

func member(name string, ct tileParams) *gpu.Kernel {
	return specLike(name, func(s *gpuimpl.KernelSpec) { s.Comptime = ct })
}

var (
	tiled64   = member("Tiled64", tileParams{Tile: 64, Unroll: 1})
	tiled16   = member("Tiled16", tileParams{Tile: 16, Unroll: 4})
	tiledHuge = gpuimpl.Register(&gpuimpl.KernelSpec{
		Name:     "github.com/goxpu/xpu/gpu_test.TiledHuge",
		Comptime: tileParams{Tile: 1 << 20},
		Refused:  "[xpu-requires] TiledHuge: requires c.Tile <= 1024 is false",
	})
	// The members are in //xpu:instance order, which is not the order of
	// their names.
	tiledTemplate = gpuimpl.RegisterTemplate(tiledName, tiled64, tiled16, tiledHuge)

	// Registrations that are wrong.
	otherMember   = member("Other1", tileParams{Tile: 1})
	twiceMember   = member("Twice1", tileParams{Tile: 2})
	tiledTwice    = gpuimpl.RegisterTemplate(tiledName, otherMember)
	stealing      = gpuimpl.RegisterTemplate("github.com/goxpu/xpu/gpu_test.Stealing", tiled16, otherMember)
	badMembers    = gpuimpl.RegisterTemplate("github.com/goxpu/xpu/gpu_test.BadMembers", nil, &gpu.Kernel{}, twiceMember, twiceMember)
	unnamed       = gpuimpl.RegisterTemplate("", tiled64)
	emptyTemplate = gpuimpl.RegisterTemplate("github.com/goxpu/xpu/gpu_test.Empty")
)

func TestTemplate(t *testing.T) {
	if got := tiledTemplate.Name(); got != tiledName {
		t.Errorf("Name() = %q, want %q", got, tiledName)
	}
	if r := tiledTemplate.Refused(); r != "" {
		t.Errorf("Refused() = %q for a sound template", r)
	}
	want := []*gpu.Kernel{tiled64, tiled16, tiledHuge}
	got := tiledTemplate.Members()
	if !slices.Equal(got, want) {
		t.Fatalf("Members() = %v, want %v in //xpu:instance order", names(got), names(want))
	}
	got[0] = nil
	if tiledTemplate.Members()[0] != tiled64 {
		t.Error("Members returned the template's own slice")
	}
	cts := []tileParams{{Tile: 64, Unroll: 1}, {Tile: 16, Unroll: 4}, {Tile: 1 << 20}}
	for i, k := range want {
		if ct, ok := k.Comptime().(tileParams); !ok || ct != cts[i] {
			t.Errorf("%s: Comptime() = %#v, want %#v", k.Name(), k.Comptime(), cts[i])
		}
		if got := k.Template(); got != tiledName {
			t.Errorf("%s: Template() = %q, want %q", k.Name(), got, tiledName)
		}
	}
	// The refused member is a member; its handle, not the template,
	// carries the refusal.
	if r := tiledHuge.Refused(); !strings.Contains(r, "requires c.Tile <= 1024 is false") {
		t.Errorf("the refused member's Refused() = %q", r)
	}
	if tiled64.Refused() != "" {
		t.Errorf("a sound member is refused: %s", tiled64.Refused())
	}
	if saxpyKernel.Comptime() != nil || saxpyKernel.Template() != "" {
		t.Errorf("a plain kernel: Comptime() = %v, Template() = %q; want nil and \"\"", saxpyKernel.Comptime(), saxpyKernel.Template())
	}
}

func TestTemplateRegistry(t *testing.T) {
	if got, ok := gpu.LookupTemplate(tiledName); !ok || got != tiledTemplate {
		t.Errorf("LookupTemplate(%q) = %p, %v; want the first registration %p", tiledName, got, ok, tiledTemplate)
	}
	if _, ok := gpu.LookupTemplate("no.Such"); ok {
		t.Error("LookupTemplate found an unregistered name")
	}
	if _, ok := gpu.LookupTemplate(tiled64.Name()); ok {
		t.Error("LookupTemplate found a kernel's name")
	}
	ts := gpu.Templates()
	if !slices.IsSortedFunc(ts, func(a, b *gpu.Template) int { return strings.Compare(a.Name(), b.Name()) }) {
		t.Errorf("Templates() is not sorted: %v", templateNames(ts))
	}
	for _, want := range []*gpu.Template{tiledTemplate, stealing, badMembers, emptyTemplate} {
		if !slices.Contains(ts, want) {
			t.Errorf("Templates() = %v misses %q", templateNames(ts), want.Name())
		}
	}
	for _, notWant := range []*gpu.Template{tiledTwice, unnamed} {
		if slices.Contains(ts, notWant) {
			t.Errorf("Templates() holds a registration that was refused: %q", notWant.Refused())
		}
	}
}

// TestTemplateRefused checks the registrations that are wrong: each is
// said by its handle's Refused, none panics, and none takes a member from
// the template it belongs to.
func TestTemplateRefused(t *testing.T) {
	for _, c := range []struct {
		t     *gpu.Template
		words []string
	}{
		{tiledTwice, []string{tiledName, "registered twice under one name"}},
		{stealing, []string{`member "github.com/goxpu/xpu/gpu_test.Tiled16" is a member of the template "` + tiledName + `"`}},
		{badMembers, []string{"member 0 is a nil kernel", "member 1 is no registered kernel",
			`member "github.com/goxpu/xpu/gpu_test.Twice1" is listed twice`}},
		{unnamed, []string{"template without a name"}},
	} {
		r := c.t.Refused()
		for _, w := range c.words {
			if !strings.Contains(r, w) {
				t.Errorf("Refused() = %q does not say %q", r, w)
			}
		}
	}
	if emptyTemplate.Refused() != "" || len(emptyTemplate.Members()) != 0 {
		t.Errorf("a template without members: Refused() = %q, Members() = %v", emptyTemplate.Refused(), emptyTemplate.Members())
	}
	// A refused registration keeps its members as given, so that what
	// was wrong can be seen.
	if got := tiledTwice.Members(); !slices.Equal(got, []*gpu.Kernel{otherMember}) {
		t.Errorf("the refused registration's Members() = %v", names(got))
	}
	if tiled16.Template() != tiledName {
		t.Errorf("a second template took the member Tiled16: Template() = %q", tiled16.Template())
	}
	// The sound members of a wrong registration are its members.
	if got := otherMember.Template(); got != stealing.Name() {
		t.Errorf("Other1.Template() = %q, want %q", got, stealing.Name())
	}
	if got := twiceMember.Template(); got != badMembers.Name() {
		t.Errorf("Twice1.Template() = %q, want %q", got, badMembers.Name())
	}
	if (&gpu.Kernel{}).Template() != "" {
		t.Error("an unregistered kernel became a member")
	}
	// A refused template has no member of any value, its refusal said;
	// badMembers holds a nil kernel and an unregistered one.
	for _, tp := range []*gpu.Template{badMembers, tiledTwice, unnamed, nil, {}} {
		k, err := tp.Member(struct{}{})
		if k != nil || !errors.Is(err, gpu.ErrArgs) || !strings.Contains(fmt.Sprint(err), tp.Refused()+": no member of the comptime value {}") {
			t.Errorf("Member of the refused template %q: %v, %v; want its refusal wrapping ErrArgs", tp.Name(), k, err)
		}
	}
	// A value that cannot be compared is no member's.
	if k, err := emptyTemplate.Member([]int{1}); k != nil || !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("Member of a slice: %v, %v; want an error wrapping ErrArgs", k, err)
	}
}

func TestTemplateNil(t *testing.T) {
	for _, tp := range []*gpu.Template{nil, {}} {
		if tp.Name() != "" || tp.Members() != nil || tp.Refused() == "" {
			t.Errorf("%#v: Name() = %q, Members() = %v, Refused() = %q; want none and a refusal", tp, tp.Name(), tp.Members(), tp.Refused())
		}
	}
	var k *gpu.Kernel
	if k.Comptime() != nil || k.Template() != "" {
		t.Errorf("nil kernel: Comptime() = %v, Template() = %q", k.Comptime(), k.Template())
	}
}

// concurrentRuns numbers the runs of TestTemplateConcurrent, whose
// registrations are named after it (go test -count).
var concurrentRuns atomic.Int32

// TestTemplateConcurrent reads the templates while one registers: the
// race detector sees the registry's lock.
func TestTemplateConcurrent(t *testing.T) {
	run := concurrentRuns.Add(1)
	name := fmt.Sprintf("github.com/goxpu/xpu/gpu_test.Concurrent%d", run)
	k := member(fmt.Sprintf("Concurrent%dA", run), tileParams{Tile: 8})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				_ = k.Template()
				_ = gpu.Templates()
				_, _ = gpu.LookupTemplate(name)
			}
		})
	}
	tp := gpuimpl.RegisterTemplate(name, k)
	wg.Wait()
	if tp.Refused() != "" {
		t.Errorf("Refused() = %q", tp.Refused())
	}
	if k.Template() != tp.Name() {
		t.Errorf("Template() = %q, want %q", k.Template(), tp.Name())
	}
}

func names(ks []*gpu.Kernel) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Name()
	}
	return out
}

func templateNames(ts []*gpu.Template) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name()
	}
	return out
}
