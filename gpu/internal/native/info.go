package native

// This file reads the facts of a device that both libraries report
// alike, under attribute numbers of each library's own.

import (
	"fmt"
	"strconv"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Attributes are a library's numbers of the device attributes ReadInfo
// reads. Each of the grid's and block's axes is numbered after its x.
type Attributes struct {
	MaxThreadsPerBlock, MaxBlockDimX, MaxGridDimX, MaxSharedPerBlock, WarpSize int32
	// Units is the number of the device's compute units, which the
	// library calls UnitsName ("multiprocessors").
	Units     int32
	UnitsName string
	// Integrated, and the facts a device may leave unreported.
	Integrated, ClockRate, MemoryClockRate, MemoryBusWidth, L2CacheSize, MaxSharedOptin int32
	// MaxRegistersPerBlock, where the device reports it, bounds a
	// block's registers (Limits.MaxRegistersPerBlock).
	MaxRegistersPerBlock int32
}

// maxUniformBytes is the uniform block a queue's device memory holds:
// the largest a launch may carry.
const maxUniformBytes = 64 << 10

// maxBufferParams is how many buffers a launch binds at most: the
// arguments of the PTX contract, which HSACO's takes over (16 bytes a
// buffer, and the uniform block's and fault word's addresses), in the
// 4,096 bytes of a kernel's parameters every CUDA version takes and of
// explicit kernel arguments a code object's kernel takes.
const maxBufferParams = (4096 - 16) / 16

// Attribute returns attribute id (what) of device dev.
func (l *Library) Attribute(dev, id int32, what string) (int32, error) {
	var v int32
	err := l.Check(l.DeviceAttribute.Name+"("+what+")", l.DeviceAttribute.Call(unsafe.Pointer(&v), id, dev))
	return v, err
}

// Positive returns attribute id (what) of device dev, which must be
// more than 0.
func (l *Library) Positive(dev, id int32, what string) (uint32, error) {
	v, err := l.Attribute(dev, id, what)
	if err != nil {
		return 0, err
	}
	if v <= 0 {
		return 0, fmt.Errorf("%s: the device reports %s %d", l.Prefix, what, v)
	}
	return uint32(v), nil
}

// ReadInfo reads what both libraries report alike of device dev: its
// name, type, limits (its subgroups are its warps) and facts. The driver
// sets the rest: the backend, driver, software, vendor, native target
// and ISA, and facts of its own.
func (l *Library) ReadInfo(dev int32, at Attributes) (driver.Info, error) {
	var vals [10]uint32
	for i, q := range []struct {
		id   int32
		what string
	}{
		{at.MaxThreadsPerBlock, "max threads per block"},
		{at.MaxBlockDimX, "max block dim x"}, {at.MaxBlockDimX + 1, "max block dim y"}, {at.MaxBlockDimX + 2, "max block dim z"},
		{at.MaxGridDimX, "max grid dim x"}, {at.MaxGridDimX + 1, "max grid dim y"}, {at.MaxGridDimX + 2, "max grid dim z"},
		{at.MaxSharedPerBlock, "shared memory per block"}, {at.WarpSize, "warp size"}, {at.Units, at.UnitsName},
	} {
		var err error
		if vals[i], err = l.Positive(dev, q.id, q.what); err != nil {
			return driver.Info{}, err
		}
	}
	var total uintptr
	if err := l.Check(l.DeviceTotalMem.Name, l.DeviceTotalMem.Call(unsafe.Pointer(&total), dev)); err != nil {
		return driver.Info{}, err
	}
	name := make([]byte, 256)
	if err := l.Check(l.DeviceGetName.Name, l.DeviceGetName.Call(unsafe.Pointer(&name[0]), int32(len(name)), dev)); err != nil {
		return driver.Info{}, err
	}
	// optional is an attribute the device may not report: 0 where it
	// does not.
	optional := func(id int32) int {
		var v int32
		if l.DeviceAttribute.Call(unsafe.Pointer(&v), id, dev) != 0 {
			return 0
		}
		return int(v)
	}
	typ := "discrete-gpu"
	if optional(at.Integrated) != 0 {
		typ = "integrated-gpu"
	}
	facts := map[string]string{
		at.UnitsName:   strconv.Itoa(int(vals[9])),
		"max grid":     fmt.Sprintf("%dx%dx%d", vals[4], vals[5], vals[6]),
		"memory bytes": strconv.FormatUint(uint64(total), 10),
	}
	for _, f := range []struct {
		id   int32
		name string
	}{
		{at.ClockRate, "clock kHz"}, {at.MemoryClockRate, "memory clock kHz"}, {at.MemoryBusWidth, "memory bus bits"},
		{at.L2CacheSize, "l2 cache bytes"}, {at.MaxSharedOptin, "shared bytes per block optin"},
	} {
		// CUDA 13 no longer reports some of these on every device: a
		// fact the library does not report is absent.
		if v := optional(f.id); v > 0 {
			facts[f.name] = strconv.Itoa(v)
		}
	}
	return driver.Info{
		Name:      CString(&name[0]),
		Type:      typ,
		Subgroups: true,
		Limits: driver.Limits{
			MaxInvocationsPerBlock: vals[0],
			MaxBlockSize:           xpu.Dim3{X: vals[1], Y: vals[2], Z: vals[3]},
			MaxGroups:              min(vals[4], vals[5], vals[6]),
			MaxGrid:                xpu.Dim3{X: vals[4], Y: vals[5], Z: vals[6]},
			MaxSharedBytes:         vals[7],
			MaxRegistersPerBlock:   uint32(max(optional(at.MaxRegistersPerBlock), 0)),
			MaxStorageBuffers:      maxBufferParams,
			MaxStorageBufferBytes:  uint64(total),
			MaxBufferBytes:         uint64(total),
			MaxUniformBytes:        maxUniformBytes,
			StorageOffsetAlignment: schema.PTXBufferAlign,
			UniformOffsetAlignment: schema.PTXUniformAlign,
			SubgroupMin:            vals[8],
			SubgroupMax:            vals[8],
		},
		Facts: facts,
	}, nil
}
