// Command saxpy runs y = a*x + y on the best device present and checks the
// result against the kernel's own Go semantics (the reference runner).
//
//	go run ./examples/saxpy
//	XPU_BACKEND=webgpu go run ./examples/saxpy
package main

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

const n = 1 << 20

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "saxpy:", err)
		os.Exit(1)
	}
}

func run() error {
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = rand.Float32(), rand.Float32()
	}
	const a = 2.5
	groups := xpu.Dim3{X: xpu.GroupsFor(n, SaxpyKernel.Block().X)}

	// The reference: the kernel run as plain Go, driven by its handle.
	want := append([]float32(nil), y...)
	if err := SaxpyKernel.Reference(groups, want, x, float32(a), uint32(n)); err != nil {
		return err
	}

	got, where, err := onDevice(groups, y, x, a)
	if err != nil {
		return err
	}
	for i := range got {
		if got[i] != want[i] && !close(got[i], want[i]) {
			return fmt.Errorf("%s: y[%d] = %v, reference says %v", where, i, got[i], want[i])
		}
	}
	fmt.Printf("device: %s\nsaxpy over %d elements: verified against the reference runner\n", where, n)
	return nil
}

// onDevice runs the kernel on the best device present, or on the
// reference runner when no backend has a device.
func onDevice(groups xpu.Dim3, y, x []float32, a float32) ([]float32, string, error) {
	dev, err := gpu.Open()
	if errors.Is(err, gpu.ErrUnavailable) {
		out := append([]float32(nil), y...)
		rerr := SaxpyKernel.Reference(groups, out, x, a, uint32(n))
		return out, "reference runner (no device: " + err.Error() + ")", rerr
	}
	if err != nil {
		return nil, "", err
	}
	defer dev.Close()
	info := dev.Info()
	where := fmt.Sprintf("%s on %s (%s, %s)", info.Backend, info.Name, info.Type, info.Driver)
	if drv := info.Software; drv != "" {
		where += " through " + drv
	}
	if l := info.Limits; l.SubgroupMin != 0 {
		where += fmt.Sprintf(", subgroup size %d", l.SubgroupMin)
		if l.SubgroupMax != l.SubgroupMin {
			where += fmt.Sprintf("..%d", l.SubgroupMax)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(info.Facts)) {
		where += fmt.Sprintf("\n  %-22s %s", k, info.Facts[k])
	}

	yb, err := gpu.Upload(dev, y)
	if err != nil {
		return nil, where, err
	}
	defer yb.Release()
	xb, err := gpu.Upload(dev, x)
	if err != nil {
		return nil, where, err
	}
	defer xb.Release()
	if err := LaunchSaxpy(dev.Stream(), groups, yb, xb, a, n); err != nil {
		return nil, where, err
	}
	out, err := yb.Download()
	return out, where, err
}

// close accepts one ulp of difference: a device may fuse a*x+y.
func close(a, b float32) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := b
	if m < 0 {
		m = -m
	}
	return d <= m*1.2e-7
}
