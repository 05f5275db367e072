// Command devices lists the devices of every backend of the xpu runtime
// compiled in: a block per device with its identity, its limits and its
// facts (absent ones left out), or why a backend has none here. It fails
// only when no backend has a device. `xpu devices` runs it, as does
//
//	go run github.com/goxpu/xpu/cmd/xpu/devices
//
// It is a program of its own, not a part of cmd/xpu, because it links the
// runtime and its drivers (cgo WebGPU, purego), which the generator that
// every go generate runs must not.
package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/schema"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status: 0 on
// success, 1 when no backend has a device, 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintf(stderr, "xpu devices: takes no arguments, got %q\nusage: xpu devices\n", args)
		return 2
	}
	if err := list(stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "xpu devices: %v\n", err)
		return 1
	}
	return 0
}

// list opens every compiled-in backend and prints a block per device. A
// backend without a device here is listed as absent.
func list(stdout, stderr io.Writer) error {
	found := 0
	for i, name := range gpu.Backends() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		d, err := gpu.OpenBackend(name)
		if err != nil {
			fmt.Fprintf(stdout, "%s: absent: %v\n", name, err)
			continue
		}
		found++
		printInfo(stdout, d.Info())
		if err := d.Close(); err != nil {
			fmt.Fprintf(stderr, "xpu devices: closing %s: %v\n", name, err)
		}
	}
	if found == 0 {
		return errors.New("no backend has a device on this machine")
	}
	return nil
}

// printInfo prints one device's block: its identity, its limits and its
// facts, the absent ones left out.
func printInfo(w io.Writer, info gpu.Info) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintf(tw, "%s: %s\n", info.Backend, info.Name)
	row := func(k string, v any) { fmt.Fprintf(tw, "  %s\t%v\n", k, v) }
	rowIf := func(k string, v uint64) {
		if v != 0 {
			row(k, v)
		}
	}
	row("backend", info.Backend)
	row("driver", info.Driver)
	row("type", info.Type)
	if info.Software != "" {
		row("software", info.Software)
	}
	if info.VendorID != 0 || info.DeviceID != 0 {
		row("pci id", fmt.Sprintf("%#04x:%#04x", info.VendorID, info.DeviceID))
	}
	if info.Subgroups {
		row("subgroups", true)
	}
	rowIf("workers", uint64(info.Workers))
	if info.Native != "" {
		// An AMDGPU code object runs on its own processor alone.
		if info.Native == schema.TargetHSACO {
			row("native code", fmt.Sprintf("%s, for %s", info.Native, info.ISA))
		} else {
			row("native code", fmt.Sprintf("%s, up to %s", info.Native, info.ISA))
		}
	}
	l := info.Limits
	rowIf("max invocations per block", uint64(l.MaxInvocationsPerBlock))
	if b := l.MaxBlockSize; b != (gpu.Limits{}).MaxBlockSize {
		row("max block size", fmt.Sprintf("%dx%dx%d", b.X, b.Y, b.Z))
	}
	rowIf("max groups per dimension", uint64(l.MaxGroups))
	rowIf("max shared bytes", uint64(l.MaxSharedBytes))
	rowIf("max storage buffers", uint64(l.MaxStorageBuffers))
	rowIf("max storage buffer bytes", l.MaxStorageBufferBytes)
	rowIf("max buffer bytes", l.MaxBufferBytes)
	rowIf("max uniform bytes", uint64(l.MaxUniformBytes))
	rowIf("storage offset alignment", uint64(l.StorageOffsetAlignment))
	rowIf("uniform offset alignment", uint64(l.UniformOffsetAlignment))
	rowIf("subgroup min", uint64(l.SubgroupMin))
	rowIf("subgroup max", uint64(l.SubgroupMax))
	for _, k := range slices.Sorted(maps.Keys(info.Facts)) {
		row(k, info.Facts[k])
	}
}
