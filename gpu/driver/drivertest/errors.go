package drivertest

// This file holds the case of errors the device reports asynchronously.

import (
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// testAsyncErrors checks that an error the device reports later (a
// dispatch over more groups than the device allows) comes back from Sync
// as a Go error, once, and that the device goes on working.
func testAsyncErrors(t *testing.T, c Config) {
	if !c.AsyncErrors {
		t.Skip("the driver reports no error after the call that caused it (Config.AsyncErrors): the CPU refuses a launch in Launch itself")
	}
	d := c.open(t)
	p, q := c.setup(t, d)
	a, b, u := mustBuffer(t, d, 4*64), mustBuffer(t, d, 4*64), mustBuffer(t, d, 4)
	tooMany := xpu.Dim3{X: d.Info().Limits.MaxGroups + 1, Y: 1, Z: 1}
	if err := q.Launch(bg, p, tooMany, []driver.Buffer{a, b, u}, uniforms(1)); err != nil {
		t.Fatal(err)
	}
	err := q.Sync(bg)
	if err == nil || !strings.Contains(err.Error(), c.AsyncErrorSays) {
		t.Fatalf("a dispatch over %d groups: Sync returned %v, want an error (saying %q)", tooMany.X, err, c.AsyncErrorSays)
	}
	t.Log(err)
	if err := q.Launch(bg, p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{a, b, u}, uniforms(5)); err != nil {
		t.Fatal(err)
	}
	if err := q.Sync(bg); err != nil {
		t.Fatalf("the device kept an old error: %v", err)
	}
	if got := readU32(t, a); got[63] != 5 {
		t.Fatalf("after an error: [63] = %d, want 5", got[63])
	}
}
