//go:build js

package jsgpu_test

import (
	"errors"
	"strings"
	"syscall/js"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/jsgpu"
)

// These tests run under Node, which has no navigator.gpu; the driver's
// work on a device is tested in a browser by the test of package wasm.

// TestOpenUnavailable checks that without navigator.gpu, Open fails with
// an error wrapping driver.ErrUnavailable instead of panicking.
func TestOpenUnavailable(t *testing.T) {
	if nav := js.Global().Get("navigator"); nav.Type() == js.TypeObject && nav.Get("gpu").Truthy() {
		t.Skip("this JS host has navigator.gpu")
	}
	_, err := jsgpu.Open()
	if !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("Open: err = %v, want one wrapping driver.ErrUnavailable", err)
	}
}

// TestRuntimeFallsBack checks that the runtime registers the driver as
// the webgpu backend and that Open falls back to the CPU without it.
func TestRuntimeFallsBack(t *testing.T) {
	if nav := js.Global().Get("navigator"); nav.Type() == js.TypeObject && nav.Get("gpu").Truthy() {
		t.Skip("this JS host has navigator.gpu")
	}
	t.Setenv("XPU_BACKEND", "")
	if _, err := gpu.OpenBackend("webgpu"); !errors.Is(err, gpu.ErrUnavailable) {
		t.Fatalf(`OpenBackend("webgpu"): err = %v, want one wrapping gpu.ErrUnavailable`, err)
	}
	d, err := gpu.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Backend() != "cpu" {
		t.Errorf("Open: backend %s, want cpu", d.Backend())
	}
}

// TestRequestAdapterRejected checks that a navigator.gpu whose adapter
// request fails gives ErrUnavailable: the promise plumbing carries a
// rejection back as an error.
func TestRequestAdapterRejected(t *testing.T) {
	g := js.Global()
	if g.Get("navigator").Type() != js.TypeUndefined {
		t.Skip("this JS host has a navigator")
	}
	reject := js.FuncOf(func(js.Value, []js.Value) any {
		return g.Get("Promise").Call("reject", g.Get("Error").New("no adapter here"))
	})
	defer reject.Release()
	g.Set("navigator", map[string]any{"gpu": map[string]any{"requestAdapter": reject}})
	defer g.Delete("navigator")
	_, err := jsgpu.Open()
	if !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("Open: err = %v, want one wrapping driver.ErrUnavailable", err)
	}
	if err != nil && !strings.Contains(err.Error(), "no adapter here") {
		t.Errorf("Open: err = %v, want the rejection's message", err)
	}
}
