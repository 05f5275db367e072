package replaycmd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/cmd/xpu/replay/replaycmd"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/launchfile"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestReplayCommand records a launch on the CPU and checks the
// command's exit status and output: 0 on the recording, 1 once an output
// is corrupted (naming the kernel and the element), 2 on a usage error.
func TestReplayCommand(t *testing.T) {
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
	var out, errOut bytes.Buffer
	if code := replaycmd.Main([]string{"-v", dir}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "1 agree") {
		t.Errorf("xpu replay -v of a recording: exit %d\n%s%s", code, out.String(), errOut.String())
	}

	file := filepath.Join(d.Recording(), "000001"+launchfile.Ext)
	h, payload, err := launchfile.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	h.Params[0].Out.Slice(payload)[8+3] ^= 0x40 // y[2]'s exponent
	var b bytes.Buffer
	if err := launchfile.Write(&b, h, payload); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := replaycmd.Main([]string{dir}, &out, &errOut); code != 1 || !strings.Contains(out.String(), "MISMATCH") || !strings.Contains(out.String(), "y[2]") {
		t.Errorf("xpu replay of a corrupted recording: exit %d, want 1 naming y[2]\n%s", code, out.String())
	}
	if code := replaycmd.Main(nil, &out, &errOut); code != 2 {
		t.Errorf("xpu replay without a folder: exit %d, want 2", code)
	}
}
