package cpubench

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// quick is a configuration small enough for a test.
var quick = Config{N: 1 << 16, GemmSizes: []int{64}, MinTime: time.Millisecond}

// TestKernelsMatchReference checks the benchmark kernels, launched
// through their generated launchers on the CPU backend, against the
// reference runner before their speed means anything: bit for bit, as
// the Go lowering keeps the order and rounding of every operation.
func TestKernelsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	dev, err := openCPU(false)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	s := dev.Stream()

	const n = 64
	a, b := randomFloats(n*n, r.Uint64()), randomFloats(n*n, r.Uint64())
	c := nans(n * n)
	bufs, err := uploads(dev, c, a, b)
	if err != nil {
		t.Fatal(err)
	}
	defer release(bufs)
	gemmGroups := xpu.Dim3{X: n / 64, Y: n / 64}
	if err := kernels.LaunchGemm(s, gemmGroups, bufs[0], bufs[1], bufs[2], n); err != nil {
		t.Fatal(err)
	}
	cfg := xpu.Config{Groups: gemmGroups, Block: kernels.GemmKernel.Block()}
	if err := xpu.Run(cfg, kernels.Gemm, c, a, b, uint32(n)); err != nil {
		t.Fatal(err)
	}
	same(t, "c", bufs[0], c)

	const per, groups = 4, 3
	x := randomFloats(256*per*groups, r.Uint64())
	partial := nans(groups)
	sbufs, err := uploads(dev, partial, x)
	if err != nil {
		t.Fatal(err)
	}
	defer release(sbufs)
	if err := kernels.LaunchSum(s, xpu.Dim3{X: groups}, sbufs[0], sbufs[1], per); err != nil {
		t.Fatal(err)
	}
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: groups}, Block: kernels.SumKernel.Block()}, kernels.Sum, partial, x, uint32(per)); err != nil {
		t.Fatal(err)
	}
	same(t, "partial", sbufs[0], partial)

	const m = 1000 // not a multiple of the block
	y, xs := randomFloats(m, r.Uint64()), randomFloats(m, r.Uint64())
	xbufs, err := uploads(dev, y, xs)
	if err != nil {
		t.Fatal(err)
	}
	defer release(xbufs)
	sgroups := xpu.Dim3{X: xpu.GroupsFor(m, kernels.SaxpyKernel.Block().X)}
	if err := kernels.LaunchSaxpy(s, sgroups, xbufs[0], xbufs[1], 0.75, m); err != nil {
		t.Fatal(err)
	}
	if err := xpu.Run(xpu.Config{Groups: sgroups, Block: kernels.SaxpyKernel.Block()}, kernels.Saxpy, y, xs, float32(0.75), uint32(m)); err != nil {
		t.Fatal(err)
	}
	same(t, "y", xbufs[0], y)
}

// nans returns n NaNs: the poison an output starts with.
func nans(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.NaN())
	}
	return v
}

// same compares a device buffer with the reference's result bit for bit.
func same(t *testing.T, name string, b *gpu.Buffer[float32], want []float32) {
	t.Helper()
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s[%d] = %v, reference %v", name, i, got[i], want[i])
		}
	}
}

func TestAllRuns(t *testing.T) {
	rs, err := All(quick)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 {
		t.Fatalf("%d results, want 4", len(rs))
	}
}

// TestTiersRun runs the host-tier measurements at their sizes, briefly:
// each compares the two tiers' results before it measures them.
func TestTiersRun(t *testing.T) {
	dev, err := gpu.OpenCPU(cpu.Config{Tier: cpu.TierHost})
	if err != nil {
		t.Fatal(err)
	}
	native := dev.Info().Native
	dev.Close()
	if native == "" {
		if gputest.Requires(string(schema.TargetLLVMHost)) {
			t.Fatal("XPU_REQUIRE names llvm-host, and the CPU device runs no host code")
		}
		t.Skip("the CPU device runs no host code here")
	}
	rs, err := Tiers(quick)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 {
		t.Fatalf("%d results, want 4", len(rs))
	}
}

func report(b *testing.B, f func() (Result, error)) {
	b.Helper()
	var r Result
	var err error
	for b.Loop() {
		if r, err = f(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(r.Value, r.Unit)
	b.ReportMetric(r.RefValue, "ref-"+r.Unit)
	b.ReportMetric(r.Ratio(), "ratio")
}

// The benchmarks each measure a kernel and its reference point in the same
// run and report the ratio.

func BenchmarkSaxpyOneCore(b *testing.B) {
	report(b, func() (Result, error) { return SaxpyOneCore(Default()) })
}

func BenchmarkSaxpyAllCores(b *testing.B) {
	report(b, func() (Result, error) { return SaxpyAllCores(Default()) })
}

func BenchmarkSum(b *testing.B) {
	report(b, func() (Result, error) { return SumReduction(Default()) })
}

func BenchmarkSGEMM512(b *testing.B) {
	report(b, func() (Result, error) { return SGEMM(Default(), 512) })
}

func BenchmarkSGEMM1024(b *testing.B) {
	report(b, func() (Result, error) { return SGEMM(Default(), 1024) })
}

func BenchmarkTierSaxpy(b *testing.B) {
	report(b, func() (Result, error) { return TierSaxpy(Default()) })
}
func BenchmarkTierBlackScholes(b *testing.B) {
	report(b, func() (Result, error) { return TierBlackScholes(Default()) })
}
func BenchmarkTierMandelbrot(b *testing.B) {
	report(b, func() (Result, error) { return TierMandelbrot(Default()) })
}
func BenchmarkTierNBody(b *testing.B) {
	report(b, func() (Result, error) { return TierNBody(Default()) })
}

func BenchmarkTierSGEMMSpelling(b *testing.B) {
	report(b, func() (Result, error) { return TierSGEMMSpelling(Default(), 1024) })
}
