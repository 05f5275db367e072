package native

// This file compiles a kernel's artifact, which the driver chooses and
// loads: one module per distinct code, and the kernel's entry in it,
// with the facts of its compiled code.

import (
	"crypto/sha256"
	"fmt"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// program is a kernel's entry in a loaded module.
type program struct {
	d    *Device
	name string
	sum  [32]byte // the module's key
	fn   uintptr
	art  *schema.Artifact
	// buffers is the kernel's buffer parameters, uniformSize its
	// uniform block's bytes.
	buffers, uniformSize int
	block                xpu.Dim3 // the kernel's
	// The facts of the compiled code (the function's attributes).
	registers, localBytes, sharedBytes, maxThreads int
	released                                       bool
}

var (
	_ driver.Program = (*program)(nil)
	_ driver.Amender = (*Device)(nil)
)

// Entry returns the function of p, a program of the shared driver, for
// a driver's tests of its attributes.
func Entry(p driver.Program) (fn uintptr, ok bool) {
	pr, ok := p.(*program)
	if !ok {
		return 0, false
	}
	return pr.fn, true
}

// Compile loads k's module, once per code, and finds its entry.
func (d *Device) Compile(k *driver.Kernel) (driver.Program, error) {
	if err := d.usable("Compile"); err != nil {
		return nil, err
	}
	l := d.lib
	if k.Refused != "" {
		return nil, fmt.Errorf("%s: kernel %s: refused by its generator: %s", l.Prefix, k.Name, k.Refused)
	}
	a := d.drv.Artifact(k)
	if a == nil {
		return nil, d.drv.Refusal(k)
	}
	if a.Symbol == "" {
		return nil, fmt.Errorf("%s: kernel %s: its %s artifact names no entry (Symbol)", l.Prefix, k.Name, a.Target)
	}
	threads, err := CheckBlock(l.Prefix, k.Name, k.Block, d.info.Limits)
	if err != nil {
		return nil, err
	}
	leave, err := d.Enter()
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
	mod, err := d.modules.Ref(p.sum, func() (uintptr, error) { return d.drv.Load(k, a) })
	if err != nil {
		return nil, err
	}
	if err := d.check(l.ModuleGetFunction.Name+"("+a.Symbol+")", l.ModuleGetFunction.Call(unsafe.Pointer(&p.fn), mod, a.Symbol)); err != nil {
		d.unref(p.sum)
		return nil, fmt.Errorf("%s: kernel %s: no entry %s in its %s: %w", l.Prefix, k.Name, a.Symbol, l.Module, err)
	}
	for _, f := range []struct {
		id  int32
		to  *int
		why string
	}{
		{FuncNumRegs, &p.registers, "NUM_REGS"}, {FuncLocalBytes, &p.localBytes, "LOCAL_SIZE_BYTES"},
		{FuncSharedBytes, &p.sharedBytes, "SHARED_SIZE_BYTES"}, {FuncMaxThreads, &p.maxThreads, "MAX_THREADS_PER_BLOCK"},
	} {
		var v int32
		if err := d.check(l.FuncGetAttribute.Name+"("+f.why+")", l.FuncGetAttribute.Call(unsafe.Pointer(&v), f.id, p.fn)); err != nil {
			d.unref(p.sum)
			return nil, fmt.Errorf("%s: kernel %s: %w", l.Prefix, k.Name, err)
		}
		*f.to = int(v)
	}
	if threads > uint64(p.maxThreads) {
		d.unref(p.sum)
		return nil, fmt.Errorf("%s: kernel %s: a block of %d threads; its compiled code, of %d %s, runs at most %d",
			l.Prefix, k.Name, threads, p.registers, l.Registers, p.maxThreads)
	}
	return p, nil
}

// unref drops a reference to the module of key sum, unloading it after
// the last. The caller has entered the device.
func (d *Device) unref(sum [32]byte) {
	if h, last := d.modules.Unref(sum); last && !d.health.Lost() {
		d.failed(d.check(d.lib.ModuleUnload.Name, d.lib.ModuleUnload.Call(h)))
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
	leave, err := p.d.Enter()
	if err != nil {
		return
	}
	defer leave()
	p.d.unref(p.sum)
}

// Amend sets the registers and the local memory (spills and private
// arrays) per thread of p's compiled code in m.
func (d *Device) Amend(p driver.Program, m *schema.Manifest) {
	pr, ok := p.(*program)
	if !ok || pr.d != d {
		return
	}
	regs, local := pr.registers, pr.localBytes
	m.Registers, m.SpillBytes = &regs, &local
}
