package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTune runs `xpu tune` twice on the CPU backend over a test family,
// with a store of its own: what the first run stored, the second reads
// without timing, and -show lists what both stored.
func TestTune(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a tuning program")
	}
	store := t.TempDir()
	tune := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"tune", "-store", store}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("xpu tune %q: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	first := tune("-backend", "cpu", "./testdata/tunefamily")
	for _, want := range []string{`device: cpu`, "conformance.Scale\n", "65536 (bucket n=65536)", "1048576 (bucket n=1048576)",
		"survivors: Scale2 ", "pruned:    ScaleNeg: refused: ", "[xpu-requires]", "winner:    Scale", "tuning cost: "} {
		if !strings.Contains(first, want) {
			t.Errorf("first run lacks %q:\n%s", want, first)
		}
	}
	stored := strings.Count(first, ", stored;")
	second := tune("-backend", "cpu", "./testdata/tunefamily")
	if got := strings.Count(second, "(stored;"); got != stored {
		t.Errorf("the first run stored %d choices, the second read %d:\n%s\n%s", stored, got, first, second)
	}
	// The second run stores what it measured steadily where the first
	// did not.
	stored += strings.Count(second, ", stored;")
	show := tune("-show")
	if !strings.Contains(show, "entries") || strings.Count(show, " build ") != stored {
		t.Errorf("-show lists other than the %d stored choices:\n%s", stored, show)
	}
	t.Logf("first run:\n%s\nsecond run:\n%s\n%s", first, second, show)
}
