//go:build (linux || darwin) && (amd64 || arm64)

package cpu

import (
	"testing"
	"unsafe"

	"github.com/goxpu/xpu/schema"
)

// TestHostLayout checks that schema's host-tier types have, on this
// platform, the layout that testdata/host.ll's %Launch, %Buffer and
// %Fault give them: a C struct of the fields in order, naturally aligned.
func TestHostLayout(t *testing.T) {
	var l schema.HostLaunch
	var b schema.HostBuffer
	var f schema.HostFault
	for _, c := range []struct {
		what      string
		got, want uintptr
	}{
		{"HostLaunch size", unsafe.Sizeof(l), 48},
		{"HostLaunch.Groups", unsafe.Offsetof(l.Groups), 0},
		{"HostLaunch.Wave", unsafe.Offsetof(l.Wave), 12},
		{"HostLaunch.Uniforms", unsafe.Offsetof(l.Uniforms), 16},
		{"HostLaunch.Buffers", unsafe.Offsetof(l.Buffers), 24},
		{"HostLaunch.Stop", unsafe.Offsetof(l.Stop), 32},
		{"HostLaunch.Fault", unsafe.Offsetof(l.Fault), 40},
		{"HostBuffer size", unsafe.Sizeof(b), 16},
		{"HostBuffer.Bytes", unsafe.Offsetof(b.Bytes), 8},
		{"HostFault size", unsafe.Sizeof(f), 36},
		{"HostFault.Group", unsafe.Offsetof(f.Group), 4},
		{"HostFault.Local", unsafe.Offsetof(f.Local), 16},
		{"HostFault.Object", unsafe.Offsetof(f.Object), 28},
		{"HostFault.Index", unsafe.Offsetof(f.Index), 32},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, the test entries assume %d", c.what, c.got, c.want)
		}
	}
}
