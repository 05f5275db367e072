package cpu

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

var _ driver.Device = (*device)(nil)

// The errors of the CPU backend; each error it returns wraps one of them
// (or driver.ErrUnavailable).
var (
	// ErrNoLowering: the kernel has no Go artifact (its Go lowering
	// refused it) or carries a Refused reason.
	ErrNoLowering = errors.New("cpu: kernel has no CPU lowering")
	// ErrLaunch: a launch does not fit its kernel or the device.
	ErrLaunch = errors.New("cpu: bad launch")
	// ErrKernel: a block of the kernel failed while running (the Go
	// lowering panicked, as the kernel's Go would). It is also a
	// driver.ErrFault (gpu.ErrFault), so that errors.Is tells a kernel
	// fault the same way on every backend.
	ErrKernel error = &kernelFault{"cpu: kernel failed"}
)

// kernelFault is the type of ErrKernel: a sentinel of its own that is
// also driver.ErrFault.
type kernelFault struct{ msg string }

func (e *kernelFault) Error() string        { return e.msg }
func (e *kernelFault) Is(target error) bool { return target == driver.ErrFault }

// unknownMemoryBound bounds a buffer where the machine's physical memory
// cannot be read (Facts.Memory is 0): the address space of a wasm
// program, and a size most machines can give.
const unknownMemoryBound = 4 << 30

// maxBlock bounds the work-items of one block, as the reference runner
// and devices do.
const maxBlock = 1024

// Config chooses what a CPU device believes of its processor.
type Config struct {
	// Facts are the processor's facts; nil means Detect().
	Facts *Facts
	// Workers is the number of blocks run at once; 0 means GOMAXPROCS.
	Workers int
}

// device is an open CPU device.
type device struct {
	facts Facts
	pool  pool
}

// Open opens the CPU device of this machine, sized by cpuid and
// GOMAXPROCS. It always succeeds.
func Open() (driver.Device, error) { return New(Config{}) }

// New opens a CPU device configured by cfg.
func New(cfg Config) (driver.Device, error) {
	d := &device{pool: pool{workers: cfg.Workers}}
	if cfg.Facts != nil {
		d.facts = *cfg.Facts
	} else {
		d.facts = Detect()
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("%w: %d workers", ErrLaunch, cfg.Workers)
	}
	if d.pool.workers == 0 {
		d.pool.workers = runtime.GOMAXPROCS(0)
	}
	return d, nil
}

// Info describes the processor; absent facts are left out.
func (d *device) Info() driver.Info {
	mem := d.maxBuffer()
	return driver.Info{
		Backend: schema.BackendCPU,
		Name:    d.facts.Model,
		Driver:  runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Type:    "cpu",
		Workers: d.pool.workers,
		Limits: driver.Limits{
			MaxInvocationsPerBlock: maxBlock,
			MaxBlockSize:           xpu.Dim3{X: maxBlock, Y: maxBlock, Z: 64},
			MaxGroups:              1<<31 - 1,
			MaxSharedBytes:         1 << 20,
			MaxUniformBytes:        64 << 10, // WebGPU's default
			MaxBufferBytes:         mem,
			MaxStorageBufferBytes:  mem,
			StorageOffsetAlignment: 4, // a view's elements are 4-byte aligned
			UniformOffsetAlignment: 8,
			SubgroupMin:            d.facts.Lanes(),
			SubgroupMax:            d.facts.Lanes(),
		},
		Facts: d.facts.Map(),
	}
}

// maxBuffer returns the largest buffer the device allocates: the
// machine's physical memory, or unknownMemoryBound where it is unknown.
func (d *device) maxBuffer() uint64 {
	if d.facts.Memory == 0 {
		return unknownMemoryBound
	}
	return d.facts.Memory
}

// wave returns the wave width a kernel runs at on this device: its
// artifact's, its declared width, or the processor's float32 lane width.
func (d *device) wave(k *driver.Kernel, a *schema.Artifact) uint32 {
	switch {
	case a.Selector.Width != 0:
		return a.Selector.Width
	case k.Wave != 0:
		return k.Wave
	}
	return d.facts.Lanes()
}

// program is a kernel ready to run on a device.
type program struct {
	dev     *device
	k       *driver.Kernel
	run     driver.CPUFunc
	wave    uint32
	buffers int // buffer parameters
}

func (*program) Release() {}

// Artifact returns k's Go artifact for the cpu backend: the CPU runs any
// wave width, so it needs no selector.
func (d *device) Artifact(k *driver.Kernel) *schema.Artifact {
	return driver.Pick(k, schema.BackendCPU, 0, 0)
}

// Compile accepts k when it has a Go artifact.
func (d *device) Compile(k *driver.Kernel) (driver.Program, error) {
	if k.Refused != "" {
		return nil, fmt.Errorf("%w: %s: %s", ErrNoLowering, k.Name, k.Refused)
	}
	a := d.Artifact(k)
	if a == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoLowering, k.Name)
	}
	run := entry(a)
	if run == nil {
		return nil, fmt.Errorf("%w: %s: its Go artifact's entry is a %T, not a block function", ErrNoLowering, k.Name, a.Entry)
	}
	if n := k.Block.Count(); n == 0 || n > maxBlock {
		return nil, fmt.Errorf("%w: %s: block of %d work-items", ErrLaunch, k.Name, n)
	}
	p := &program{dev: d, k: k, run: run, wave: d.wave(k, a)}
	for _, prm := range k.Params {
		if prm.Kind == schema.ParamBuffer {
			p.buffers++
		}
	}
	return p, nil
}

// entry returns the block function of a Go artifact: generated code
// names it by its function, of the unnamed type func(*CPUBlock).
func entry(a *schema.Artifact) driver.CPUFunc {
	switch f := a.Entry.(type) {
	case driver.CPUFunc:
		return f
	case func(*driver.CPUBlock):
		return f
	}
	return nil
}

// NewBuffer allocates size zeroed bytes aligned to 8, refusing a size
// beyond MaxBufferBytes: Go ends the program, with no error to return,
// when the system cannot give an allocation.
func (d *device) NewBuffer(size int) (driver.Buffer, error) {
	if lim := d.maxBuffer(); size < 0 || uint64(size) > lim {
		return nil, fmt.Errorf("%w: buffer of %d bytes (the device allows %d)", ErrLaunch, size, lim)
	}
	words := make([]uint64, (size+7)/8)
	return &buffer{dev: d, mem: wordBytes(words)[:size:size]}, nil
}

// NewQueue returns a queue whose launches run when they are recorded.
func (d *device) NewQueue() (driver.Queue, error) { return &queue{dev: d}, nil }

// Close releases nothing: the device holds no resources beyond memory.
func (d *device) Close() error { return nil }
