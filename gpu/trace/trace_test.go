package trace_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/trace"
)

// events are a run's worth of every kind, on two devices and streams.
func events() []trace.Event {
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	at := func(us int) time.Time { return t0.Add(time.Duration(us) * time.Microsecond) }
	return []trace.Event{
		{Kind: trace.Launch, Device: "webgpu lavapipe", Name: "matmul.Tile64x64", Tier: "wgsl", Grid: [3]uint32{4, 4, 1}, Block: [3]uint32{16, 16, 1}, Start: at(0), Dur: 30 * time.Microsecond},
		{Kind: trace.Flush, Device: "webgpu lavapipe", Start: at(31), Dur: 5 * time.Microsecond},
		{Kind: trace.Wait, Device: "webgpu lavapipe", Start: at(36), Dur: 900 * time.Microsecond},
		{Kind: trace.Launch, Device: "webgpu lavapipe", Stream: 1, Name: "nn.Softmax", Tier: "wgsl", Grid: [3]uint32{8, 1, 1}, Block: [3]uint32{256, 1, 1}, Start: at(40), Dur: 12 * time.Microsecond},
		{Kind: trace.Adapter, Device: "cpu AMD EPYC", Name: "matvec(f32/contiguous, q8_0/blocked-row-major, f32/contiguous) on cpu", Detail: "quant.Pack converts w", Start: at(50)},
		{Kind: trace.Host, Device: "cpu AMD EPYC", Name: "kernels/simd.MatVecQ8_0", Start: at(51), Dur: 70 * time.Microsecond},
		{Kind: trace.Fallback, Device: "cpu AMD EPYC", Name: "sort(u32/strided) on cpu", Start: at(130)},
		{Kind: trace.Refusal, Device: "cpu AMD EPYC", Name: "matmul.Tile8x8", Detail: "gpu: grid too large", Start: at(140)},
		{Kind: trace.Fault, Device: "cpu AMD EPYC", Name: "conformance.OutOfBounds", Detail: "index 9 out of range", Start: at(150)},
	}
}

// TestChromeRoundTrip writes every kind of event and reads the file back.
func TestChromeRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	c := trace.NewChrome(&buf)
	want := events()
	for _, e := range want {
		c.Record(e)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c.Record(want[0]) // after Close: dropped
	got, err := trace.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(got) != len(want) {
		t.Fatalf("read %d events, wrote %d:\n%s", len(got), len(want), buf.String())
	}
	origin := want[0].Start
	for i := range want {
		w := want[i]
		w.Start = time.Unix(0, 0).Add(w.Start.Sub(origin))
		g := got[i]
		if !g.Start.Equal(w.Start) {
			t.Errorf("event %d starts at %v, want %v", i, g.Start, w.Start)
		}
		g.Start = w.Start
		if g != w {
			t.Errorf("event %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestChromeEmpty: a trace without events is valid and empty.
func TestChromeEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := trace.NewChrome(&buf).Close(); err != nil {
		t.Fatal(err)
	}
	es, err := trace.Read(&buf)
	if err != nil || len(es) != 0 {
		t.Fatalf("Read = %v, %v; want no events", es, err)
	}
}

// TestReadRefuses names what is wrong with a file that is not a trace.
func TestReadRefuses(t *testing.T) {
	for _, in := range []string{"", "[1,2]", `{"other":1}`, `{"traceEvents":[`} {
		if _, err := trace.Read(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "trace: reading a Chrome trace") {
			t.Errorf("Read(%q) = %v; want a named error", in, err)
		}
	}
}

type failing struct{ n int }

func (f *failing) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestChromeWriteError: a writer's error is kept and returned by Close.
func TestChromeWriteError(t *testing.T) {
	c := trace.NewChrome(&failing{n: 100})
	for range 1000 {
		for _, e := range events() {
			c.Record(e)
		}
	}
	if err := c.Close(); err == nil || err.Error() != "disk full" {
		t.Fatalf("Close = %v; want the writer's error", err)
	}
}

// TestChromeConcurrent records from many goroutines (run with -race);
// every event arrives whole.
func TestChromeConcurrent(t *testing.T) {
	var buf bytes.Buffer
	c := trace.NewChrome(&buf)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				c.Record(trace.Event{Kind: trace.Launch, Device: "cpu", Stream: g, Name: "k", Start: time.Now(), Dur: time.Duration(i)})
			}
		})
	}
	wg.Wait()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	es, err := trace.Read(&buf)
	if err != nil || len(es) != 800 {
		t.Fatalf("read %d events, %v; want 800", len(es), err)
	}
}

// TestDrawSVG draws a track per device and stream, as well-formed XML
// that names the kernels.
func TestDrawSVG(t *testing.T) {
	var buf bytes.Buffer
	if err := trace.DrawSVG(&buf, events()); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, buf.String())
		}
	}
	for _, s := range []string{"webgpu lavapipe, stream 0", "webgpu lavapipe, stream 1", "cpu AMD EPYC, stream 0", "matmul.Tile64x64", "kernels/simd.MatVecQ8_0", "9 events"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("the picture lacks %q", s)
		}
	}
	buf.Reset()
	if err := trace.DrawSVG(&buf, nil); err != nil || !strings.Contains(buf.String(), "0 events") {
		t.Errorf("an empty picture: %v\n%s", err, buf.String())
	}
}

// TestKindString names every kind.
func TestKindString(t *testing.T) {
	for k := trace.Launch; k <= trace.Compile; k++ {
		if s := k.String(); strings.HasPrefix(s, "Kind(") {
			t.Errorf("kind %d has no name", k)
		}
	}
	if s := trace.Kind(99).String(); s != "Kind(99)" {
		t.Errorf("Kind(99).String() = %q", s)
	}
}

// TestTotals sums spans by name, most time first, and skips instants.
func TestTotals(t *testing.T) {
	es := events()
	es = append(es, es[0], es[2]) // a second launch and a second wait
	got := trace.Totals(es)
	want := []trace.Total{
		{Name: "wait", Count: 2, Time: 1800 * time.Microsecond},
		{Name: "kernels/simd.MatVecQ8_0", Count: 1, Time: 70 * time.Microsecond},
		{Name: "matmul.Tile64x64", Count: 2, Time: 60 * time.Microsecond},
		{Name: "nn.Softmax", Count: 1, Time: 12 * time.Microsecond},
		{Name: "flush", Count: 1, Time: 5 * time.Microsecond},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Totals:\n got %+v\nwant %+v", got, want)
	}
}

// TestChromeEscapes writes names and details that JSON must escape and
// reads them back unchanged.
func TestChromeEscapes(t *testing.T) {
	odd := "a \"quoted\" \\ back\nslash\t\x01 é ☃ </script>"
	var buf bytes.Buffer
	c := trace.NewChrome(&buf)
	c.Record(trace.Event{Kind: trace.Refusal, Device: odd, Name: odd, Detail: odd, Start: time.Now()})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	es, err := trace.Read(&buf)
	if err != nil || len(es) != 1 || es[0].Name != odd || es[0].Detail != odd || es[0].Device != odd {
		t.Fatalf("read back %+v, %v", es, err)
	}
}
