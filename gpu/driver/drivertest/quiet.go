package drivertest

// This file checks that a driver keeps its libraries off standard error.

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
)

// quietChild marks the process Quiet runs the test again in.
const quietChild = "XPU_DRIVERTEST_QUIET_CHILD"

// Quiet checks that opening and closing a device of the driver prints
// nothing to standard error while driver.DebugEnv is unset: the device
// libraries' messages (a log callback's, a loaded library's) are written
// to file descriptor 2 by C code, which only another process can watch,
// so Quiet runs the calling test again in the test binary, in which it
// opens and closes a device, once with the setting unset and once set to
// "1", and reads what each wrote there. What the libraries print with the
// setting depends on the machine: it is logged, and shows where it is not
// empty that the capture sees what they print. The test must be a
// top-level test; an unavailable device skips it unless required.
func Quiet(t *testing.T, open func() (driver.Device, error), required bool) {
	t.Helper()
	if os.Getenv(quietChild) == "1" {
		Open(t, open, required) // closed when the test ends
		return
	}
	quiet := runChild(t, "")
	if quiet.skipped {
		t.Skipf("no device:\n%s", quiet.stdout)
	}
	if quiet.stderr != "" {
		t.Errorf("opening and closing a device with %s unset printed to standard error:\n%s", driver.DebugEnv, quiet.stderr)
	}
	loud := runChild(t, "1")
	t.Logf("with %s=1 opening and closing a device printed %d bytes to standard error: %q", driver.DebugEnv, len(loud.stderr), loud.stderr)
}

type childRun struct {
	stdout, stderr string
	skipped        bool
}

// runChild runs the calling test in a child process with driver.DebugEnv
// set to debug.
func runChild(t *testing.T, debug string) childRun {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), quietChild+"=1", driver.DebugEnv+"="+debug)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the child test (%s=%q): %v\nstdout:\n%s\nstderr:\n%s", driver.DebugEnv, debug, err, stdout.String(), stderr.String())
	}
	return childRun{stdout: stdout.String(), stderr: stderr.String(), skipped: strings.Contains(stdout.String(), "--- SKIP")}
}
