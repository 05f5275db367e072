//go:build js

package jsgpu

import (
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/webgpu/internal/webgputest"
)

// TestDriver runs the drivers' conformance suite on navigator.gpu. It
// needs a browser: the browser test of package wasm runs it in a headless
// Chromium; under Node, Open finds no navigator.gpu and the cases skip.
func TestDriver(t *testing.T) {
	webgputest.Run(t, webgputest.Config{
		Open:                     Open,
		NoType:                   true,
		CompileErrorLine:         "WGSL: 11:",
		RefusesReadOnlyAsStorage: true,
		RingRounds:               2,
		AsyncErrors:              true,
		LongWork:                 7 * time.Second,
	})
}
