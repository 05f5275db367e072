package cpu

import (
	"runtime"
	"strconv"

	"github.com/klauspost/cpuid/v2"
)

// SIMD is the widest float32 vector instruction set a processor offers
// that the CPU backend knows.
type SIMD int

// The SIMD levels, from none to the widest.
const (
	SIMDNone    SIMD = iota // scalar only (or not readable, as under wasm)
	SIMDSSE4                // x86 SSE4.1: 4 float32 lanes
	SIMDNEON                // arm64 Advanced SIMD: 4 float32 lanes
	SIMDAVX2FMA             // x86 AVX2 with FMA3: 8 float32 lanes
	SIMDAVX512              // x86 AVX-512 F: 16 float32 lanes
)

func (s SIMD) String() string {
	switch s {
	case SIMDSSE4:
		return "sse4"
	case SIMDNEON:
		return "neon"
	case SIMDAVX2FMA:
		return "avx2+fma"
	case SIMDAVX512:
		return "avx512"
	}
	return "none"
}

// Lanes returns the float32 lane width of s: 16, 8, 4 or 1.
func (s SIMD) Lanes() uint32 {
	switch s {
	case SIMDAVX512:
		return 16
	case SIMDAVX2FMA:
		return 8
	case SIMDSSE4, SIMDNEON:
		return 4
	}
	return 1
}

// Facts are what the CPU backend knows of the processor. A zero numeric
// field or an empty string means the fact could not be read; [Facts.Map]
// then leaves it out. Facts is a plain value so that tests can inject
// a processor of their own (see [Config]).
type Facts struct {
	Vendor        string // e.g. "AMD", "Intel", "ARM"
	Model         string // the brand string
	PhysicalCores int
	LogicalCores  int
	SIMD          SIMD
	CacheLine     int // bytes
	L1D, L2, L3   int // data cache sizes in bytes
	// X64Level is the processor's x86-64 microarchitecture level, 1 to 4
	// (x86-64, x86-64-v2, -v3, -v4), or 0 on another processor: on amd64
	// the widest host-tier code it runs (Selector.ISA). On arm64 that is
	// armv8-a where SIMD is SIMDNEON.
	X64Level int
	// Memory is the machine's physical memory in bytes (Linux); the
	// device allocates no buffer larger (MaxBufferBytes), since Go
	// cannot return an error for an allocation the system refuses.
	Memory uint64
}

// Detect reads the facts of the processor this program runs on.
func Detect() Facts {
	c := &cpuid.CPU
	f := Facts{
		Model:         c.BrandName,
		PhysicalCores: positive(c.PhysicalCores),
		LogicalCores:  positive(c.LogicalCores),
		CacheLine:     positive(c.CacheLine),
		L1D:           positive(c.Cache.L1D),
		L2:            positive(c.Cache.L2),
		L3:            positive(c.Cache.L3),
		SIMD:          detectSIMD(c),
		X64Level:      c.X64Level(),
		Memory:        physicalMemory(),
	}
	if c.VendorID != cpuid.VendorUnknown {
		f.Vendor = c.VendorID.String()
	}
	return f
}

func detectSIMD(c *cpuid.CPUInfo) SIMD {
	switch {
	case c.Supports(cpuid.AVX512F):
		return SIMDAVX512
	case c.Supports(cpuid.AVX2, cpuid.FMA3):
		return SIMDAVX2FMA
	case c.Supports(cpuid.SSE4):
		return SIMDSSE4
	case c.Supports(cpuid.ASIMD), runtime.GOARCH == "arm64":
		// Advanced SIMD is mandatory in AArch64.
		return SIMDNEON
	}
	return SIMDNone
}

func positive(n int) int { return max(n, 0) }

// Lanes returns the float32 lane width: the CPU's wave width.
func (f Facts) Lanes() uint32 { return f.SIMD.Lanes() }

// Map returns the facts that could be read, by stable names: vendor,
// model, cores.physical, cores.logical, simd, lanes, isa (the level of
// host code it runs, as Selector.ISA names it), cache.line, cache.l1d,
// cache.l2, cache.l3, memory (sizes in bytes).
func (f Facts) Map() map[string]string {
	m := map[string]string{
		"simd":  f.SIMD.String(),
		"lanes": strconv.Itoa(int(f.Lanes())),
	}
	put := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	num := func(k string, n int) {
		if n > 0 {
			m[k] = strconv.Itoa(n)
		}
	}
	put("vendor", f.Vendor)
	put("model", f.Model)
	put("isa", isaName(f.level()))
	num("cores.physical", f.PhysicalCores)
	num("cores.logical", f.LogicalCores)
	num("cache.line", f.CacheLine)
	num("cache.l1d", f.L1D)
	num("cache.l2", f.L2)
	num("cache.l3", f.L3)
	if f.Memory > 0 {
		m["memory"] = strconv.FormatUint(f.Memory, 10)
	}
	return m
}
