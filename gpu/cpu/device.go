package cpu

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

var (
	_ driver.Device  = (*device)(nil)
	_ driver.Refuser = (*device)(nil)
)

// The errors of the CPU backend; each error it returns wraps one of them
// (or driver.ErrUnavailable).
var (
	// ErrNoLowering: the kernel has no artifact the device runs (no Go
	// artifact, or, at the host tier only, no host artifact the processor
	// holds), carries a Refused reason, or its host code does not load
	// (ErrHostLoad, which is also ErrNoLowering).
	ErrNoLowering = errors.New("cpu: kernel has no CPU lowering")
	// ErrLaunch: a launch does not fit its kernel or the device.
	ErrLaunch = errors.New("cpu: bad launch")
	// ErrHostLoad: a kernel's host-tier shared object could not be
	// written to the cache, loaded, or does not hold the kernel's entry.
	// It is also ErrNoLowering.
	ErrHostLoad error = &alsoSentinel{"cpu: host code does not load", ErrNoLowering}
	// ErrKernel: a block of the kernel failed while running (the Go
	// lowering panicked, as the kernel's Go would; the host code returned
	// a fault). It is also a driver.ErrFault (gpu.ErrFault), so that
	// errors.Is tells a kernel fault the same way on every backend.
	ErrKernel error = &alsoSentinel{"cpu: kernel failed", driver.ErrFault}
)

// alsoSentinel is a sentinel of its own that is also a broader one.
type alsoSentinel struct {
	msg  string
	also error
}

func (e *alsoSentinel) Error() string        { return e.msg }
func (e *alsoSentinel) Is(target error) bool { return target == e.also }

// unknownMemoryBound bounds a buffer where the machine's physical memory
// cannot be read (Facts.Memory is 0): the address space of a wasm
// program, and a size most machines can give.
const unknownMemoryBound = 4 << 30

// maxBlock bounds the work-items of one block, as the reference runner
// and devices do.
const maxBlock = 1024

// Config chooses what a CPU device believes of its processor and which
// tier of a kernel it runs.
type Config struct {
	// Facts are the processor's facts; nil means Detect().
	Facts *Facts
	// Workers is the number of blocks run at once; 0 means GOMAXPROCS.
	Workers int
	// Tier is which of a kernel's artifacts the device runs (see Tier).
	Tier Tier
	// CacheDir is the folder host-tier code is written to, to be loaded
	// from there; "" means the user's cache folder (os.UserCacheDir) and
	// xpu/host under it. Where that cannot be written, each load writes
	// to a temporary folder of its own and removes it once loaded.
	CacheDir string
	// ISA caps the level of host code the device runs, as Selector.ISA
	// names it ("x86-64-v3"): the device takes the processor for one of
	// that level, its lanes included. "" means the processor's own level;
	// a level above it, or one this architecture does not have, fails
	// New. It runs a machine's lower levels' code on it, to test or
	// measure them.
	ISA string
}

// The environment variables Open reads Config.CacheDir and Config.ISA
// from.
const (
	cacheEnv = "XPU_CPU_CACHE"
	isaEnv   = "XPU_CPU_ISA"
)

// device is an open CPU device.
type device struct {
	facts Facts
	pool  pool
	tier  Tier
	cache string
}

// Open opens the CPU device of this machine, sized by cpuid and
// GOMAXPROCS, at the tier $XPU_CPU_TIER names ("go", "llvm-host", or
// empty for auto), with its host code cached in $XPU_CPU_CACHE (empty:
// the default) and capped at the level $XPU_CPU_ISA names (empty: the
// processor's). It fails only for a tier or a level it cannot take.
func Open() (driver.Device, error) {
	t, err := ParseTier(os.Getenv(tierEnv))
	if err != nil {
		return nil, fmt.Errorf("%w (from $%s)", err, tierEnv)
	}
	d, err := New(Config{Tier: t, CacheDir: os.Getenv(cacheEnv), ISA: os.Getenv(isaEnv)})
	if err != nil && os.Getenv(isaEnv) != "" {
		return nil, fmt.Errorf("%w (from $%s)", err, isaEnv)
	}
	return d, err
}

// New opens a CPU device configured by cfg.
func New(cfg Config) (driver.Device, error) {
	d := &device{pool: pool{workers: cfg.Workers}, tier: cfg.Tier, cache: cfg.CacheDir}
	if cfg.Facts != nil {
		d.facts = *cfg.Facts
	} else {
		d.facts = Detect()
	}
	if cfg.ISA != "" {
		f, err := d.facts.capped(cfg.ISA)
		if err != nil {
			return nil, fmt.Errorf("cpu: Config.ISA: %w", err)
		}
		d.facts = f
	}
	if cfg.Workers < 0 {
		return nil, fmt.Errorf("%w: %d workers", ErrLaunch, cfg.Workers)
	}
	if cfg.Tier < TierAuto || cfg.Tier > TierHost {
		return nil, fmt.Errorf("cpu: Config.Tier: unknown %v", cfg.Tier)
	}
	if d.pool.workers == 0 {
		d.pool.workers = runtime.GOMAXPROCS(0)
	}
	return d, nil
}

// Info describes the processor; absent facts are left out.
func (d *device) Info() driver.Info {
	mem := d.maxBuffer()
	native, isa := d.hostTier()
	return driver.Info{
		Backend: schema.BackendCPU,
		Name:    d.facts.Model,
		Driver:  runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Type:    "cpu",
		Workers: d.pool.workers,
		Native:  native,
		ISA:     isa,
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

// program is a kernel ready to run on a device: its Go block function,
// or the address of its host-tier entry.
type program struct {
	dev     *device
	k       *driver.Kernel
	run     driver.CPUFunc
	host    uintptr // the host-tier entry; 0 for the Go tier
	wave    uint32
	buffers int // buffer parameters
	// itemNs is the host entry's measured cost per work-item, in
	// nanoseconds as float64 bits; 0 before a call measured it
	// (leastItems).
	//
	//lint:ignore U1000 read and written where this platform loads host code (host_launch.go)
	itemNs atomic.Uint64
}

func (*program) Release() {}

// Artifact returns the artifact of k the device runs: by its tier, the
// host artifact of the widest level the processor holds, else the Go
// artifact (which needs no selector: the CPU runs any wave width).
func (d *device) Artifact(k *driver.Kernel) *schema.Artifact {
	if d.tier != TierGo {
		if a := d.hostArtifact(k); a != nil {
			return a
		}
	}
	if d.tier == TierHost {
		return nil
	}
	return goArtifact(k)
}

// Refusal says why Artifact(k) is nil (see driver.Refuser).
func (d *device) Refusal(k *driver.Kernel) error {
	if d.Artifact(k) != nil {
		return nil
	}
	if d.tier == TierHost {
		return fmt.Errorf("%w: %s: the device runs the llvm-host tier only, and %s", ErrNoLowering, k.Name, d.noHostArtifact(k))
	}
	return fmt.Errorf("%w: %s", ErrNoLowering, k.Name)
}

// Compile accepts k when it has an artifact the device runs: for the
// host tier, once its shared object is loaded and holds its entry.
func (d *device) Compile(k *driver.Kernel) (driver.Program, error) {
	if k.Refused != "" {
		return nil, fmt.Errorf("%w: %s: %s", ErrNoLowering, k.Name, k.Refused)
	}
	a := d.Artifact(k)
	if a == nil {
		return nil, d.Refusal(k)
	}
	if n := k.Block.Count(); n == 0 || n > maxBlock {
		return nil, fmt.Errorf("%w: %s: block of %d work-items", ErrLaunch, k.Name, n)
	}
	p := &program{dev: d, k: k, wave: d.wave(k, a)}
	if isHost(a) {
		if a.Fault {
			// The runtime would bind a fault word the entry never reads.
			return nil, fmt.Errorf("%w: %s: its llvm-host artifact's manifest sets Fault, but host code returns its faults (schema/host.go) and binds no fault word", ErrNoLowering, k.Name)
		}
		fn, err := d.loadEntry(k, a)
		if err != nil {
			return nil, err
		}
		p.host = fn
	} else if p.run = entry(a); p.run == nil {
		return nil, fmt.Errorf("%w: %s: its Go artifact's entry is a %T, not a block function", ErrNoLowering, k.Name, a.Entry)
	}
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
	b := &buffer{dev: d, mem: wordBytes(words)[:size:size]}
	if d.hostLevel() > 0 && size > 0 {
		// Host code reads the buffer through its address: pinned once
		// here, for the buffer's life, and not at each launch, where the
		// pin would be a fair part of a small launch's cost.
		b.pin = new(runtime.Pinner)
		b.pin.Pin(unsafe.SliceData(words))
		runtime.AddCleanup(b, (*runtime.Pinner).Unpin, b.pin) // a buffer never released
	}
	return b, nil
}

// NewQueue returns a queue whose launches run when they are recorded.
func (d *device) NewQueue() (driver.Queue, error) { return &queue{dev: d}, nil }

// Close releases nothing: the device holds no resources beyond memory.
func (d *device) Close() error { return nil }
