//go:build !((linux || darwin) && (amd64 || arm64))

package cpu

// This file stands for the host tier where purego cannot load code
// without cgo: there the device runs the Go tier only.

import (
	"context"
	"errors"
	"fmt"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// hostLoads reports that this platform loads host-tier code.
const hostLoads = false

// loadable reports whether this platform loads code: it loads none.
func loadable(string) bool { return false }

// objectFormat names the format loadable accepts.
const objectFormat = "none"

// errNoHost is what the host tier's calls return here; the device never
// chooses a host artifact where hostLoads is false, so none is reached.
var errNoHost = errors.New("cpu: no host tier on this platform")

func (d *device) loadEntry(*driver.Kernel, *schema.Artifact) (uintptr, error) {
	return 0, fmt.Errorf("%w: %w", ErrHostLoad, errNoHost)
}

func (p *pool) runHost(context.Context, *program, xpu.Dim3, [][]byte, []byte) error {
	return errNoHost
}
