//go:build linux && (amd64 || arm64)

package cuda

// This file chooses a kernel's PTX artifact for the device and compiles
// it: one module per distinct PTX text, which CUDA's JIT compiles for the
// device, and the kernel's entry in it, with the facts of its compiled
// code.

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
	// The facts of the compiled code (cuFuncGetAttribute).
	registers, localBytes, sharedBytes, maxThreads int
	released                                       bool
}

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
	w := d.info.Limits.SubgroupMin
	return s.SubgroupMin == 0 || s.SubgroupMin <= w && w <= s.SubgroupMax
}

// Refusal says why Artifact(k) is nil: the compute capability its
// artifacts need, or a selector no warp of the device holds.
func (d *device) Refusal(k *driver.Kernel) error {
	if d.Artifact(k) != nil {
		return nil
	}
	var needs []string
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		if a.Backend != schema.BackendCUDA {
			continue
		}
		switch _, _, err := schema.ParsePTXTarget(a.Selector.ISA); {
		case a.Target != schema.TargetPTX:
			needs = append(needs, fmt.Sprintf("target %s (the driver runs %s)", a.Target, schema.TargetPTX))
		case err != nil:
			needs = append(needs, err.Error())
		case !d.warps(a.Selector):
			needs = append(needs, fmt.Sprintf("warps of %d to %d lanes", a.Selector.SubgroupMin, a.Selector.SubgroupMax))
		default:
			needs = append(needs, a.Selector.ISA)
		}
	}
	if len(needs) == 0 {
		return fmt.Errorf("cuda: kernel %s: no ptx artifact", k.Name)
	}
	return fmt.Errorf("cuda: kernel %s: its ptx artifacts need %s; the device %s is %s",
		k.Name, strings.Join(needs, ", "), d.info.Name, d.info.ISA)
}

// The CUfunction_attribute values the driver reads.
const (
	funcMaxThreads  = 0
	funcSharedBytes = 1
	funcLocalBytes  = 3
	funcNumRegs     = 4
)

// The CUjit_option values of a module's load.
const (
	jitInfoLog       = 3
	jitInfoLogBytes  = 4
	jitErrorLog      = 5
	jitErrorLogBytes = 6
)

// jitLogBytes is the size of each of the JIT's log buffers.
const jitLogBytes = 16 << 10

// Compile loads k's PTX module, once per text, and finds its entry.
func (d *device) Compile(k *driver.Kernel) (driver.Program, error) {
	if err := d.usable("Compile"); err != nil {
		return nil, err
	}
	if k.Refused != "" {
		return nil, fmt.Errorf("cuda: kernel %s: refused by its generator: %s", k.Name, k.Refused)
	}
	a := d.Artifact(k)
	if a == nil {
		return nil, d.Refusal(k)
	}
	if a.Symbol == "" {
		return nil, fmt.Errorf("cuda: kernel %s: its ptx artifact names no entry (Symbol)", k.Name)
	}
	threads, err := native.CheckBlock("cuda", k.Name, k.Block, d.info.Limits)
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
	if err := d.api.check("cuModuleGetFunction("+a.Symbol+")", d.api.moduleGetFunc(unsafe.Pointer(&p.fn), mod, a.Symbol)); err != nil {
		d.unref(p.sum)
		return nil, fmt.Errorf("cuda: kernel %s: no entry %s in its module: %w", k.Name, a.Symbol, err)
	}
	for _, f := range []struct {
		id  int32
		to  *int
		why string
	}{
		{funcNumRegs, &p.registers, "NUM_REGS"}, {funcLocalBytes, &p.localBytes, "LOCAL_SIZE_BYTES"},
		{funcSharedBytes, &p.sharedBytes, "SHARED_SIZE_BYTES"}, {funcMaxThreads, &p.maxThreads, "MAX_THREADS_PER_BLOCK"},
	} {
		var v int32
		if err := d.api.check("cuFuncGetAttribute("+f.why+")", d.api.funcAttribute(unsafe.Pointer(&v), f.id, p.fn)); err != nil {
			d.unref(p.sum)
			return nil, fmt.Errorf("cuda: kernel %s: %w", k.Name, err)
		}
		*f.to = int(v)
	}
	if threads > uint64(p.maxThreads) {
		d.unref(p.sum)
		return nil, fmt.Errorf("cuda: kernel %s: a block of %d threads; its compiled code, of %d registers a thread, runs at most %d",
			k.Name, threads, p.registers, p.maxThreads)
	}
	return p, nil
}

// load loads the module of a's text; the caller has entered the
// context.
func (d *device) load(k *driver.Kernel, a *schema.Artifact) (uintptr, error) {
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

// unref drops a reference to the module of key sum, unloading it after
// the last. The caller has entered the context.
func (d *device) unref(sum [32]byte) {
	if h, last := d.modules.Unref(sum); last && !d.health.Lost() {
		d.failed(d.api.check("cuModuleUnload", d.api.moduleUnload(h)))
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

// Amend sets the registers and the local memory (spills and private
// arrays) per thread of p's compiled code in m.
func (d *device) Amend(p driver.Program, m *schema.Manifest) {
	pr, ok := p.(*program)
	if !ok || pr.d != d {
		return
	}
	regs, local := pr.registers, pr.localBytes
	m.Registers, m.SpillBytes = &regs, &local
}
