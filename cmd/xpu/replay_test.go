package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestReplay records a launch on the CPU and runs `xpu replay` on it,
// by the replay program and by one written to link a package besides:
// both replay it, and a folder without a launch fails.
func TestReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs replay programs")
	}
	d, err := gpu.OpenBackend("cpu")
	if err != nil {
		t.Skip(err)
	}
	defer d.Close()
	dir := t.TempDir()
	if err := d.SetRecord(dir); err != nil {
		t.Fatal(err)
	}
	y, _ := gpu.Upload(d, []float32{1, 2, 3, 4})
	x, _ := gpu.Upload(d, []float32{5, 6, 7, 8})
	if err := conformance.LaunchSaxpy(d.Stream(), xpu.Dim3{X: 1}, y, x, 2, 4); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", "-v", dir}, {"replay", "-v", dir, "./testdata/tunefamily"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "1 launches: 1 agree") {
			t.Errorf("xpu %q: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"replay", t.TempDir()}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no launch file") {
		t.Errorf("xpu replay of an empty folder: exit %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
}
