package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestUsageError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"extra"}, &stdout, &stderr); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "takes no arguments") || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q: want the usage on stderr alone", stdout.String(), stderr.String())
	}
}

func TestListsEveryBackend(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(nil, &stdout, &stderr)
	if code != 0 {
		t.Skipf("no device here (exit %d): %s", code, stderr.String())
	}
	if strings.Contains(stdout.String(), "\t0\n") || strings.Contains(stdout.String(), " 0\n") {
		t.Errorf("devices prints a zero fact instead of leaving it out:\n%s", stdout.String())
	}
	for _, want := range []string{"backend", "driver", "type", "cpu:", "max invocations per block", "max shared bytes", "simd", "lanes"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("devices output lacks %q:\n%s", want, stdout.String())
		}
	}
}
