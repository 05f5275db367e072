package wasm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/kernels/librarytest"
	"github.com/goxpu/xpu/kernels/wave"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wasm"
	"github.com/goxpu/xpu/wasm/devtools"
)

var update = flag.Bool("update", false, "write the screenshot of the demo page to docs/browser.png")

// report is the part of the demo's report (wasm/demo, Report) that the
// test reads.
type report struct {
	Backend  string `json:"backend"`
	Fallback string `json:"fallback"`
	Device   struct {
		Name      string `json:"Name"`
		Subgroups bool   `json:"Subgroups"`
		Limits    struct{ SubgroupMin, SubgroupMax uint32 }
		Facts     map[string]string `json:"Facts"`
	} `json:"device"`
	Suites []struct {
		Name     string            `json:"name"`
		Outcomes []gputest.Outcome `json:"outcomes"`
		Waves    map[string]struct {
			Tier  string `json:"tier"`
			Width uint32 `json:"width"`
		} `json:"waves"`
	} `json:"suites"`
	Bench []struct {
		Name      string  `json:"name"`
		Device    float64 `json:"device"`
		Reference float64 `json:"reference"`
		Against   string  `json:"against"`
	} `json:"bench"`
	Tune []struct {
		Shape     string             `json:"shape"`
		Key       string             `json:"key"`
		Survivors []string           `json:"survivors"`
		Chosen    string             `json:"chosen"`
		Source    string             `json:"source"`
		Medians   map[string]float64 `json:"medians_us"`
		Again     string             `json:"again"`
		Error     string             `json:"error"`
	} `json:"tune"`
	Error string `json:"error"`
	Done  bool   `json:"done"`
}

// TestBrowser runs in a headless Chromium with WebGPU, served on
// 127.0.0.1: the browser driver's tests (driver), and the demo (demo),
// whose report must show a WebGPU adapter and every case of every suite
// matching the reference runner that ran in the same wasm program. It is
// skipped when Chromium is absent, unless XPU_REQUIRE names "browser".
func TestBrowser(t *testing.T) {
	path, err := devtools.Find()
	if err != nil {
		if gputest.Requires("browser") {
			t.Fatalf("XPU_REQUIRE names browser, but there is no Chromium: %v", err)
		}
		t.Skipf("no Chromium: %v", err)
	}
	// About 3.5 minutes on a quiet 2-core machine, with a software
	// WebGPU device; under load the pages take up to twice as long.
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	b, err := devtools.Launch(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	}()
	t.Run("driver", func(t *testing.T) { testDriver(ctx, t, b) })
	t.Run("demo", func(t *testing.T) { testDemo(ctx, t, b) })
	for _, line := range b.Log() {
		if strings.HasPrefix(line, "exception:") {
			t.Errorf("a page threw: %s", line)
		}
	}
}

// skippable are the cases of the driver suite that a page cannot run:
// every other case must pass in the browser, not be skipped, so a case
// added to the suite is required here without a word.
var skippable = map[string]bool{
	"TestDriver/NoLeaks": true, // reads the process's memory from /proc
}

// testDriver runs the tests of the browser driver in the page.
func testDriver(ctx context.Context, t *testing.T, b *devtools.Browser) {
	const pkg = "github.com/goxpu/xpu/gpu/webgpu/jsgpu"
	url := serve(ctx, t, func(dir string) error { return wasm.BuildTest(ctx, pkg, dir) })
	page, err := b.NewPage(ctx, url+"/?args=-test.v")
	if err != nil {
		t.Fatal(err)
	}
	state, err := wait(ctx, page)
	out := strings.Join(b.Log(), "\n")
	if err != nil {
		t.Fatalf("%v\npage console:\n%s\nbrowser stderr:\n%s", err, out, tail(b.Stderr(), 4000))
	}
	if state.ExitCode == nil || *state.ExitCode != 0 {
		t.Errorf("the tests of %s failed in the browser (%s):\n%s", pkg, state.Error, out)
	}
	if !strings.Contains(out, "--- PASS: TestDriver ") {
		t.Errorf("the driver suite did not pass in the browser:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		_, skip, ok := strings.Cut(line, "--- SKIP: ")
		name, _, _ := strings.Cut(skip, " ")
		if ok && strings.HasPrefix(name, "TestDriver/") && !skippable[name] {
			t.Errorf("%s was skipped in the browser:\n%s", name, line)
		}
	}
}

// noWebGPU removes WebGPU from a page before its scripts run.
const noWebGPU = "delete Navigator.prototype.gpu;"

// testDemo runs the demo in a page and checks its report: on WebGPU, and
// in a page without WebGPU, on the CPU backend, saying so.
func testDemo(ctx context.Context, t *testing.T, b *devtools.Browser) {
	seed, err := gputest.Seed()
	if err != nil {
		t.Fatal(err)
	}
	url := serve(ctx, t, func(dir string) error { return wasm.Build(ctx, wasm.Demo, dir) })
	url += fmt.Sprintf("/?seed=%d", seed)
	t.Run("webgpu", func(t *testing.T) {
		page, r := runDemo(ctx, t, b, url)
		screenshot(ctx, t, page)
		if r.Backend != "webgpu" {
			t.Fatalf("the page ran on %q, not on WebGPU: %s %s", r.Backend, r.Fallback, r.Error)
		}
		t.Logf("adapter %s: subgroups %d-%d, facts %v", r.Device.Name, r.Device.Limits.SubgroupMin, r.Device.Limits.SubgroupMax, r.Device.Facts)
		// A device with subgroups reports their probed layout, and offers
		// their sizes to the wave tiers only when it is consecutive.
		if layout, ok := r.Device.Facts["subgroup-layout"]; r.Device.Subgroups != ok {
			t.Errorf("subgroups %v, subgroup-layout fact %q", r.Device.Subgroups, layout)
		} else if ok && (layout == "consecutive") != (r.Device.Limits.SubgroupMax > 0) {
			t.Errorf("subgroup-layout %q with subgroup sizes %d-%d", layout, r.Device.Limits.SubgroupMin, r.Device.Limits.SubgroupMax)
		}
		check(t, r, seed)
	})
	t.Run("no-webgpu", func(t *testing.T) {
		_, r := runDemo(ctx, t, b, url, noWebGPU)
		if r.Backend != "cpu" || !strings.Contains(r.Fallback, "navigator.gpu") {
			t.Fatalf("without WebGPU the page ran on %q (fallback %q), want cpu saying why", r.Backend, r.Fallback)
		}
		check(t, r, seed)
	})
}

// runDemo opens the demo at url in a new page, with scripts run before
// the page's own, and returns its report.
func runDemo(ctx context.Context, t *testing.T, b *devtools.Browser, url string, scripts ...string) (*devtools.Page, *report) {
	t.Helper()
	start := time.Now()
	page, err := b.NewPage(ctx, url, scripts...)
	if err != nil {
		t.Fatal(err)
	}
	state, err := wait(ctx, page)
	if err == nil && state.Report == "" {
		err = fmt.Errorf("the page ended with no report: %s", state.Error)
	}
	var r report
	if err == nil {
		err = json.Unmarshal([]byte(state.Report), &r)
	}
	if err != nil {
		t.Fatalf("%v\npage console:\n%s\nbrowser stderr:\n%s", err, strings.Join(b.Log(), "\n"), tail(b.Stderr(), 4000))
	}
	t.Logf("the page ran in %v on %s (%s)", time.Since(start).Round(time.Millisecond), r.Backend, r.Device.Name)
	return page, &r
}

// serve builds a program into a fresh folder with build and serves it on
// 127.0.0.1 for the rest of the test; it returns the server's URL.
func serve(ctx context.Context, t *testing.T, build func(dir string) error) string {
	t.Helper()
	dir := t.TempDir()
	start := time.Now()
	if err := build(dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("built in %v", time.Since(start).Round(time.Millisecond))
	srv := httptest.NewServer(wasm.Handler(dir))
	t.Cleanup(srv.Close)
	return srv.URL
}

// pageState is globalThis.xpu of the page (see page/loader.js).
type pageState struct {
	Done     bool   `json:"done"`
	Report   string `json:"report"`
	Error    string `json:"error"`
	ExitCode *int   `json:"exitCode"`
}

// done is the page's state once its program is done (see page/loader.js).
const done = "globalThis.xpu && globalThis.xpu.done ? globalThis.xpu : null"

// wait waits until the page's program is done.
func wait(ctx context.Context, page *devtools.Page) (*pageState, error) {
	var state pageState
	if err := page.Await(ctx, done, &state); err != nil {
		return nil, err
	}
	return &state, nil
}

// check fails the test on an error, a missing case or a case that
// differs from the reference.
func check(t *testing.T, r *report, seed uint64) {
	t.Helper()
	if r.Error != "" || !r.Done {
		t.Errorf("the page stopped: %s", r.Error)
	}
	want := map[string][]*gputest.Case{"conformance": conformance.Cases(), "streams": conformance.StreamCases(), "wave": wave.Cases(), "library": librarytest.Cases(true)}
	ran := map[string][]gputest.Outcome{}
	for _, s := range r.Suites {
		ran[s.Name] = s.Outcomes
		var took time.Duration
		for _, o := range s.Outcomes {
			took += o.Elapsed
			if !o.OK() {
				t.Errorf("%s suite, %s on %s: %s\n%s\n(seed %d: rerun with %s=%d)", s.Name, o.Case, r.Backend, o.Status, o.Error, seed, gputest.SeedEnv, seed)
			}
		}
		t.Logf("%s suite: %d cases in %v on %s%s", s.Name, len(s.Outcomes), took.Round(time.Millisecond), r.Backend, byPackage(want[s.Name], s.Outcomes))
	}
	for _, name := range []string{"conformance", "streams", "wave", "library"} {
		suite, cases := ran[name], want[name]
		if len(suite) != len(cases) {
			t.Errorf("the page ran %d %s cases, want %d", len(suite), name, len(cases))
		}
		for i := range min(len(suite), len(cases)) {
			if suite[i].Case != cases[i].Name() {
				t.Errorf("%s case %d is %s, want %s", name, i, suite[i].Case, cases[i].Name())
			}
		}
	}
	checkTiers(t, r)
	for _, x := range r.Bench {
		t.Logf("bench %s: device %.3g, %s %.3g (ratio %.2f)", x.Name, x.Device, x.Against, x.Reference, x.Device/x.Reference)
	}
	checkTune(t, r)
}

// byPackage says how long the outcomes of cases took, package by
// package, in the order the packages first come, when the cases come
// from more than one package.
func byPackage(cases []*gputest.Case, outs []gputest.Outcome) string {
	var pkgs []string
	took := map[string]time.Duration{}
	for i := range min(len(cases), len(outs)) {
		n := cases[i].Kernel.Name()
		p := path.Base(n[:strings.LastIndexByte(n, '.')])
		if _, ok := took[p]; !ok {
			pkgs = append(pkgs, p)
		}
		took[p] += outs[i].Elapsed
	}
	if len(pkgs) < 2 {
		return ""
	}
	var b strings.Builder
	for _, p := range pkgs {
		fmt.Fprintf(&b, ", %s %v", p, took[p].Round(time.Millisecond))
	}
	return b.String()
}

// checkTune checks the demo's tuning step on the browser's device: each
// shape's SGEMM member chosen by measurement among the survivors, every
// timed survivor's median positive, the choice remembered when asked
// again.
func checkTune(t *testing.T, r *report) {
	t.Helper()
	if len(r.Tune) == 0 {
		t.Error("the page tuned no shape")
	}
	for _, x := range r.Tune {
		if x.Error != "" || x.Source != "measured" || !slices.Contains(x.Survivors, x.Chosen) || x.Again != "remembered" || len(x.Medians) == 0 {
			t.Errorf("tuning %s on %s: %+v", x.Shape, r.Backend, x)
		}
		for m, us := range x.Medians {
			if !(us > 0) || !slices.Contains(x.Survivors, m) {
				t.Errorf("tuning %s: median of %s is %g µs", x.Shape, m, us)
			}
		}
		t.Logf("tune %s (%s) on %s: %s, %s, medians %v", x.Shape, x.Key, r.Backend, x.Chosen, x.Source, x.Medians)
	}
}

// checkTiers checks the wave tier of each wave case on a WebGPU device
// whose subgroups have one size S: a kernel declaring W = S, and a
// width-agnostic one, run native at S; W > S folded; W < S narrow.
func checkTiers(t *testing.T, r *report) {
	t.Helper()
	l := r.Device.Limits
	if r.Backend != "webgpu" || l.SubgroupMax == 0 || l.SubgroupMin != l.SubgroupMax {
		return
	}
	s := l.SubgroupMax
	for _, su := range r.Suites {
		if su.Name != "wave" {
			continue
		}
		for _, c := range wave.Cases() {
			if m, ok := c.Kernel.Manifest(schema.BackendWebGPU); !ok || !m.WaveOps {
				continue // a kernel with no wave verb, as the shared-memory reduction
			}
			tier, width := "native", s
			if w := c.Kernel.Spec().Wave; w != 0 {
				width = w
				switch {
				case w > s:
					tier = "folded"
				case w < s:
					tier = "narrow"
				}
			}
			got, ok := su.Waves[c.Name()]
			t.Logf("wave case %s: tier %s, width %d", c.Name(), got.Tier, got.Width)
			if !ok || got.Tier != tier || got.Width != width {
				t.Errorf("wave case %s with subgroups of %d: tier %q width %d, want %q width %d", c.Name(), s, got.Tier, got.Width, tier, width)
			}
		}
	}
}

// screenshot captures the page; with -update it writes it to
// docs/browser.png.
func screenshot(ctx context.Context, t *testing.T, page *devtools.Page) {
	t.Helper()
	png, err := page.Screenshot(ctx)
	if err != nil {
		t.Errorf("screenshot: %v", err)
		return
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot: not a PNG (%d bytes)", len(png))
		return
	}
	if *update {
		out := filepath.Join("..", "docs", "browser.png")
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Error(err)
		}
		t.Logf("wrote %s (%d bytes)", out, len(png))
	}
}

// tail returns the end of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
