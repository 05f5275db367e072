package browserbench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/tune"
	"github.com/goxpu/xpu/wasm"
	"github.com/goxpu/xpu/wasm/devtools"
)

// page is the import path of the page program.
const page = "github.com/goxpu/xpu/bench/browserbench/page"

// result is the page's Result (bench/browserbench/page).
type result struct {
	N       int       `json:"n"`
	Device  string    `json:"device"`
	TFJS    string    `json:"tfjs"`
	Member  string    `json:"member"`
	Source  string    `json:"source"`
	Ours    []float64 `json:"ours_s"`
	Theirs  []float64 `json:"tfjs_s"`
	MaxDiff float64   `json:"max_diff"`
	Error   string    `json:"error"`
}

// sizes are the products timed and the rounds of each. The tuner
// measures the family at 256 only, and the larger sizes launch its
// choice: on a software device one product of 512 takes seconds and one
// of 1024 tens of seconds, so that tuning there would take many minutes.
var sizes = []struct{ n, reps int }{{256, 7}, {512, 3}, {1024, 2}}

// BenchmarkSGEMM times kernels/matmul's Sgemm on the WebGPU device of a
// headless Chromium beside tf.matMul of tfjs-backend-webgpu in the same
// page, on the same matrices, interleaved, each call read back, and
// reports the medians: ns/op and GFLOP/s are ours, tfjs-GFLOP/s theirs,
// x-tfjs the ratio. One page per size; b.N is not used (run it with
// -benchtime 1x, and -timeout 30m: a software device is slow). It is skipped when Chromium or npm is missing, unless
// XPU_REQUIRE names "browser".
func BenchmarkSGEMM(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	skip := b.Skipf
	if gputest.Requires("browser") {
		skip = b.Fatalf
	}
	path, err := devtools.Find()
	if err != nil {
		skip("no Chromium: %v", err)
	}
	scripts, err := tfjs(ctx)
	if err != nil {
		skip("no tfjs: %v", err)
	}
	site := b.TempDir()
	if err := wasm.Build(ctx, page, site); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(wasm.Handler(site))
	defer srv.Close()
	br, err := devtools.Launch(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := br.Close(); err != nil {
			b.Error(err)
		}
	}()
	var member string // the tuner's choice at the first size
	for _, sz := range sizes {
		b.Run(fmt.Sprintf("n=%d", sz.n), func(b *testing.B) {
			url := fmt.Sprintf("%s/?args=-n=%d+-reps=%d", srv.URL, sz.n, sz.reps)
			if member != "" {
				url += "+-member=" + member
			}
			r := run(ctx, b, br, url, scripts)
			if member == "" {
				member = r.Member
			}
			flop := 2 * float64(sz.n) * float64(sz.n) * float64(sz.n)
			ours, theirs := median(r.Ours), median(r.Theirs)
			b.ReportMetric(ours*1e9, "ns/op")
			b.ReportMetric(flop/ours/1e9, "GFLOP/s")
			b.ReportMetric(flop/theirs/1e9, "tfjs-GFLOP/s")
			b.ReportMetric(theirs/ours, "x-tfjs")
			b.Logf("%s, tfjs %s: n=%d, Sgemm (%s, %s) %.3f GFLOP/s, tf.matMul %.3f GFLOP/s, ratio %.2f; rounds %v / %v s; largest difference %.2g of its bound",
				r.Device, r.TFJS, sz.n, tune.Short(r.Member), r.Source, flop/ours/1e9, flop/theirs/1e9, theirs/ours, r.Ours, r.Theirs, r.MaxDiff)
		})
	}
}

// run opens the page at url, with scripts run before its own, and
// returns its result.
func run(ctx context.Context, b *testing.B, br *devtools.Browser, url string, scripts []string) *result {
	p, err := br.NewPage(ctx, url, scripts...)
	if err != nil {
		b.Fatal(err)
	}
	var state struct {
		Report string `json:"report"`
		Error  string `json:"error"`
	}
	err = p.Await(ctx, "globalThis.xpu && globalThis.xpu.done ? globalThis.xpu : null", &state)
	if err == nil && state.Report == "" {
		err = fmt.Errorf("the page ended with no report: %s", state.Error)
	}
	var r result
	if err == nil {
		err = json.Unmarshal([]byte(state.Report), &r)
	}
	if err == nil && r.Error != "" {
		err = fmt.Errorf("the page: %s", r.Error)
	}
	if err != nil {
		b.Fatalf("%v\npage console:\n%s", err, strings.Join(br.Log(), "\n"))
	}
	return &r
}

// median returns the median of v: the mean of the middle two of an even
// count.
func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s) == 0 {
		return 0
	}
	h := len(s) / 2
	if len(s)%2 == 0 {
		return (s[h-1] + s[h]) / 2
	}
	return s[h]
}
