package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/trace"
)

// TestTrace summarizes a trace and draws it.
func TestTrace(t *testing.T) {
	dir := t.TempDir()
	in, svg := filepath.Join(dir, "run.json"), filepath.Join(dir, "run.svg")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	c := trace.NewChrome(f)
	t0 := time.Now()
	for i := range 4 {
		c.Record(trace.Event{Kind: trace.Launch, Device: "cpu", Name: "nn.Softmax", Start: t0.Add(time.Duration(i) * time.Millisecond), Dur: 250 * time.Microsecond})
	}
	c.Record(trace.Event{Kind: trace.Wait, Device: "cpu", Start: t0.Add(5 * time.Millisecond), Dur: time.Millisecond})
	c.Record(trace.Event{Kind: trace.Fallback, Device: "cpu", Name: "sort(u32/strided) on cpu", Detail: "no kernel takes it", Start: t0})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"trace", "-svg", svg, in}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, s := range []string{"6 events", "nn.Softmax  4      1ms   250µs", "wait        1      1ms", "fallback: sort(u32/strided) on cpu: no kernel takes it"} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("the summary lacks %q:\n%s", s, stdout.String())
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.Contains(b, []byte("nn.Softmax")) {
		t.Errorf("the picture: %v\n%s", err, b)
	}
	os.WriteFile(in, []byte("not json"), 0o644)
	if code := run([]string{"trace", in}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "reading a Chrome trace") {
		t.Errorf("a file that is no trace: exit %d, %s", code, stderr.String())
	}
}
