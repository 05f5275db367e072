//go:build linux && (amd64 || arm64)

package cuda

// This file chooses a kernel's PTX artifact for the device and loads
// its module, which CUDA's JIT compiles for the device; the shared
// driver (native.Device.Compile) finds the kernel's entry in it.

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
	"github.com/goxpu/xpu/schema"
)

// Artifact returns k's PTX artifact the device runs: of its cuda ptx
// artifacts whose selector admits the device's warps, the one built for
// the highest compute capability the device has, the first on a tie.
func (d *device) Artifact(k *driver.Kernel) *schema.Artifact {
	var best *schema.Artifact
	bestCC := -1
	have := d.cc[0]*10 + d.cc[1]
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		if a.Backend != schema.BackendCUDA || a.Target != schema.TargetPTX || !d.warps(a.Selector) {
			continue
		}
		major, minor, err := schema.ParsePTXTarget(a.Selector.ISA)
		if cc := major*10 + minor; err == nil && cc <= have && cc > bestCC {
			best, bestCC = a, cc
		}
	}
	return best
}

// warps reports whether s admits the device's warp size.
func (d *device) warps(s schema.Selector) bool {
	w := d.Info().Limits.SubgroupMin
	return s.SubgroupMin == 0 || s.SubgroupMin <= w && w <= s.SubgroupMax
}

// Refusal says why Artifact(k) is nil: the compute capability its
// artifacts need, or a selector no warp of the device holds.
func (d *device) Refusal(k *driver.Kernel) error {
	if d.Artifact(k) != nil {
		return nil
	}
	return native.Refusal("cuda", d.Info(), k, "need", func(a *schema.Artifact) string {
		if _, _, err := schema.ParsePTXTarget(a.Selector.ISA); err != nil {
			return err.Error()
		}
		if !d.warps(a.Selector) {
			return fmt.Sprintf("warps of %d to %d lanes", a.Selector.SubgroupMin, a.Selector.SubgroupMax)
		}
		return a.Selector.ISA
	})
}

// The CUjit_option values of a module's load.
const (
	jitInfoLog       = 3
	jitInfoLogBytes  = 4
	jitErrorLog      = 5
	jitErrorLogBytes = 6
)

// jitLogBytes is the size of each of the JIT's log buffers.
const jitLogBytes = 16 << 10

// Load loads the module of a's text, which CUDA's JIT compiles for the
// device; the caller has entered the context.
func (d *device) Load(k *driver.Kernel, a *schema.Artifact) (uintptr, error) {
	infoLog, errLog := make([]byte, jitLogBytes), make([]byte, jitLogBytes)
	opts := []int32{jitInfoLog, jitInfoLogBytes, jitErrorLog, jitErrorLogBytes}
	// The values are void*: the buffers' addresses and the sizes as
	// pointer-sized integers. The buffers are live Go memory for the call.
	vals := []uintptr{uintptr(unsafe.Pointer(&infoLog[0])), jitLogBytes, uintptr(unsafe.Pointer(&errLog[0])), jitLogBytes}
	image := zstring(a.Code)
	var h uintptr
	rc := d.api.moduleLoadDataEx(unsafe.Pointer(&h), unsafe.Pointer(&image[0]), uint32(len(opts)), unsafe.Pointer(&opts[0]), unsafe.Pointer(&vals[0]))
	runtime.KeepAlive(infoLog)
	runtime.KeepAlive(errLog)
	if rc != cuSuccess {
		log := strings.TrimSpace(native.CString(&errLog[0]))
		if log == "" {
			log = "the JIT wrote no log"
		}
		return 0, fmt.Errorf("cuda: kernel %s: its %s module does not load: %w; JIT log: %s", k.Name, a.Selector.ISA, d.api.check("cuModuleLoadDataEx", rc), log)
	}
	return h, nil
}
