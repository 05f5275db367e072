package gpu

// This file names a device by what changes the answers measured or
// derived on it, so that a store of such answers (the tuner's) can tell
// the device it was made on from another.

import (
	"fmt"
	"strconv"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/schema"
)

// DeviceKey identifies a device for what is measured or derived on it:
// the backend and the software and driver that run it, the adapter or
// processor, and the geometry that changes a kernel's best shape or
// whether it fits (subgroups, block and shared-memory limits, blocks run
// at once). Two opens of one device on one machine give equal keys; a
// device that differs in any of these gives a different one. Facts for
// display only (Info.Facts) are not part of it. Keys compare with ==;
// [DeviceKey.String] is a stable spelling for file names and logs.
type DeviceKey struct {
	Backend  schema.Backend
	Software string // Info.Software: "wgpu-native 0.19.4.1", "dawn", a user agent
	Driver   string // Info.Driver: "vulkan", "go1.26 linux/amd64"
	Name     string // the adapter's or processor's name
	Type     string // "discrete-gpu", "cpu", ...

	VendorID, DeviceID uint32 // PCI ids; 0 where the driver has none

	Subgroups                bool
	SubgroupMin, SubgroupMax uint32
	MaxInvocationsPerBlock   uint32
	MaxBlockSize             xpu.Dim3
	MaxSharedBytes           uint32
	Workers                  int
}

// Key returns the device's key; the zero key for a nil device.
func (d *Device) Key() DeviceKey {
	if d == nil {
		return DeviceKey{}
	}
	return keyOf(d.info)
}

// keyOf returns the key of a device that info describes.
func keyOf(info Info) DeviceKey {
	l := info.Limits
	return DeviceKey{
		Backend:                info.Backend,
		Software:               info.Software,
		Driver:                 info.Driver,
		Name:                   info.Name,
		Type:                   info.Type,
		VendorID:               info.VendorID,
		DeviceID:               info.DeviceID,
		Subgroups:              info.Subgroups,
		SubgroupMin:            l.SubgroupMin,
		SubgroupMax:            l.SubgroupMax,
		MaxInvocationsPerBlock: l.MaxInvocationsPerBlock,
		MaxBlockSize:           l.MaxBlockSize,
		MaxSharedBytes:         l.MaxSharedBytes,
		Workers:                info.Workers,
	}
}

// String spells the key as one line, every field named and in a fixed
// order, strings quoted: equal keys spell alike and different keys
// differently. The leading "device/1" names the spelling, to be raised
// when a field is added.
func (k DeviceKey) String() string {
	b := k.MaxBlockSize
	return fmt.Sprintf("device/1 backend=%s software=%s driver=%s name=%s type=%s pci=%#x:%#x subgroups=%t:%d-%d block=%d:%dx%dx%d shared=%d workers=%d",
		strconv.Quote(string(k.Backend)), strconv.Quote(k.Software), strconv.Quote(k.Driver), strconv.Quote(k.Name), strconv.Quote(k.Type),
		k.VendorID, k.DeviceID, k.Subgroups, k.SubgroupMin, k.SubgroupMax,
		k.MaxInvocationsPerBlock, b.X, b.Y, b.Z, k.MaxSharedBytes, k.Workers)
}
