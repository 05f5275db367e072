//go:build linux && (amd64 || arm64)

package hip

// This file chooses a kernel's HSACO artifact for the device and loads
// its code object; the shared driver (native.Device.Compile) finds the
// kernel's entry in it.

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
	"github.com/goxpu/xpu/schema"
)

// Artifact returns k's HSACO artifact the device runs: the first of its
// hip hsaco artifacts built for the device's processor (Selector.ISA).
// A code object runs on its processor only, so there is no best among
// others, and at the wave size its kernel descriptors state (the one it
// was built for), whatever the device's default; Selector.Width is, as
// for every artifact, the wave width the kernel's verbs run at.
func (d *device) Artifact(k *driver.Kernel) *schema.Artifact {
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		if a.Backend == schema.BackendHIP && a.Target == schema.TargetHSACO && a.Selector.ISA == d.Info().ISA {
			return a
		}
	}
	return nil
}

// Refusal says why Artifact(k) is nil: the processors its artifacts are
// built for, beside the device's.
func (d *device) Refusal(k *driver.Kernel) error {
	if d.Artifact(k) != nil {
		return nil
	}
	return native.Refusal("hip", d.Info(), k, "are for", func(a *schema.Artifact) string { return a.Selector.ISA })
}

// Load loads the code object of a; the caller has entered the device.
// HIP copies the image while it loads it, so the bytes are pinned for
// the call alone.
func (d *device) Load(k *driver.Kernel, a *schema.Artifact) (uintptr, error) {
	if a.Code == "" {
		return 0, fmt.Errorf("hip: kernel %s: its hsaco artifact holds no code object", k.Name)
	}
	image := []byte(a.Code)
	var h uintptr
	rc := d.api.moduleLoadData(unsafe.Pointer(&h), unsafe.Pointer(&image[0]))
	runtime.KeepAlive(image)
	if rc == hipErrNoBinary {
		return 0, fmt.Errorf("hip: kernel %s: its code object for %s does not load on the device, a %s: %w",
			k.Name, a.Selector.ISA, d.arch, d.api.check("hipModuleLoadData", rc))
	}
	if rc != hipSuccess {
		return 0, fmt.Errorf("hip: kernel %s: its %s code object does not load: %w", k.Name, a.Selector.ISA, d.api.check("hipModuleLoadData", rc))
	}
	return h, nil
}
