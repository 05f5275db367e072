//go:build linux && (amd64 || arm64)

package hip

// This file chooses a kernel's HSACO artifact for the device and loads
// it: one module per distinct code object, and the kernel's entry in it,
// with the facts of its code.

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
	"github.com/goxpu/xpu/schema"
)

// program is a kernel's entry in a loaded module.
type program struct {
	d    *device
	name string
	sum  [32]byte // the module's key
	fn   uintptr
	art  *schema.Artifact
	// buffers is the kernel's buffer parameters, uniformSize its
	// uniform block's bytes.
	buffers, uniformSize int
	block                xpu.Dim3 // the kernel's
	// The facts of the code (hipFuncGetAttribute).
	registers, privateBytes, sharedBytes, maxThreads int
	released                                         bool
}

// Artifact returns k's HSACO artifact the device runs: the first of its
// hip hsaco artifacts built for the device's processor (Selector.ISA).
// A code object runs on its processor only, so there is no best among
// others, and at the wave size its kernel descriptors state (the one it
// was built for), whatever the device's default; Selector.Width is, as
// for every artifact, the wave width the kernel's verbs run at.
func (d *device) Artifact(k *driver.Kernel) *schema.Artifact {
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		if a.Backend == schema.BackendHIP && a.Target == schema.TargetHSACO && a.Selector.ISA == d.info.ISA {
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
	var needs []string
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		if a.Backend != schema.BackendHIP {
			continue
		}
		if a.Target != schema.TargetHSACO {
			needs = append(needs, fmt.Sprintf("target %s (the driver runs %s)", a.Target, schema.TargetHSACO))
			continue
		}
		needs = append(needs, a.Selector.ISA)
	}
	if len(needs) == 0 {
		return fmt.Errorf("hip: kernel %s: no hsaco artifact", k.Name)
	}
	return fmt.Errorf("hip: kernel %s: its hsaco artifacts are for %s; the device %s is %s",
		k.Name, strings.Join(needs, ", "), d.info.Name, d.info.ISA)
}

// The hipFunction_attribute values the driver reads.
const (
	funcMaxThreads   = 0
	funcSharedBytes  = 1
	funcPrivateBytes = 3 // LOCAL_SIZE_BYTES: the private segment
	funcNumRegs      = 4 // VGPRs per work-item
)

// Compile loads k's code object, once per object, and finds its entry.
func (d *device) Compile(k *driver.Kernel) (driver.Program, error) {
	if err := d.usable("Compile"); err != nil {
		return nil, err
	}
	if k.Refused != "" {
		return nil, fmt.Errorf("hip: kernel %s: refused by its generator: %s", k.Name, k.Refused)
	}
	a := d.Artifact(k)
	if a == nil {
		return nil, d.Refusal(k)
	}
	if a.Symbol == "" {
		return nil, fmt.Errorf("hip: kernel %s: its hsaco artifact names no entry (Symbol)", k.Name)
	}
	if a.Code == "" {
		return nil, fmt.Errorf("hip: kernel %s: its hsaco artifact holds no code object", k.Name)
	}
	threads, err := native.CheckBlock("hip", k.Name, k.Block, d.info.Limits)
	if err != nil {
		return nil, err
	}
	leave, err := d.enter()
	if err != nil {
		return nil, err
	}
	defer leave()
	p := &program{d: d, name: k.Name, art: a, sum: sha256.Sum256([]byte(a.Code)), uniformSize: k.UniformSize, block: k.Block}
	for _, prm := range k.Params {
		if prm.Kind == schema.ParamBuffer {
			p.buffers++
		}
	}
	mod, err := d.modules.Ref(p.sum, func() (uintptr, error) { return d.load(k, a) })
	if err != nil {
		return nil, err
	}
	if err := d.api.check("hipModuleGetFunction("+a.Symbol+")", d.api.moduleGetFunc(unsafe.Pointer(&p.fn), mod, a.Symbol)); err != nil {
		d.unref(p.sum)
		return nil, fmt.Errorf("hip: kernel %s: no entry %s in its code object: %w", k.Name, a.Symbol, err)
	}
	for _, f := range []struct {
		id  int32
		to  *int
		why string
	}{
		{funcNumRegs, &p.registers, "NUM_REGS"}, {funcPrivateBytes, &p.privateBytes, "LOCAL_SIZE_BYTES"},
		{funcSharedBytes, &p.sharedBytes, "SHARED_SIZE_BYTES"}, {funcMaxThreads, &p.maxThreads, "MAX_THREADS_PER_BLOCK"},
	} {
		var v int32
		if err := d.api.check("hipFuncGetAttribute("+f.why+")", d.api.funcAttribute(unsafe.Pointer(&v), f.id, p.fn)); err != nil {
			d.unref(p.sum)
			return nil, fmt.Errorf("hip: kernel %s: %w", k.Name, err)
		}
		*f.to = int(v)
	}
	if threads > uint64(p.maxThreads) {
		d.unref(p.sum)
		return nil, fmt.Errorf("hip: kernel %s: a block of %d threads; its code, of %d VGPRs a work-item, runs at most %d",
			k.Name, threads, p.registers, p.maxThreads)
	}
	return p, nil
}

// load loads the code object of a; the caller has entered the device.
// HIP copies the image while it loads it, so the bytes are pinned for
// the call alone.
func (d *device) load(k *driver.Kernel, a *schema.Artifact) (uintptr, error) {
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

// unref drops a reference to the module of key sum, unloading it after
// the last. The caller has entered the device.
func (d *device) unref(sum [32]byte) {
	if h, last := d.modules.Unref(sum); last && !d.health.Lost() {
		d.failed(d.api.check("hipModuleUnload", d.api.moduleUnload(h)))
	}
}

// Release drops the program's module reference; the last program of a
// module unloads it, after the work that uses it (the runtime releases a
// program once its launches are done). On a lost device the module stays.
func (p *program) Release() {
	if p.released {
		return
	}
	p.released = true
	if p.d.usable("Release") != nil {
		return
	}
	leave, err := p.d.enter()
	if err != nil {
		return
	}
	defer leave()
	p.d.unref(p.sum)
}

// Amend sets the registers (VGPRs per work-item) and the private segment
// (spills and private arrays, bytes per work-item) of p's code in m.
func (d *device) Amend(p driver.Program, m *schema.Manifest) {
	pr, ok := p.(*program)
	if !ok || pr.d != d {
		return
	}
	regs, private := pr.registers, pr.privateBytes
	m.Registers, m.SpillBytes = &regs, &private
}
