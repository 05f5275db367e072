package cpubench

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goxpu/xpu"
)

// quick is a configuration small enough for a test.
var quick = Config{N: 1 << 16, GemmSizes: []int{32}, MinTime: time.Millisecond}

// TestKernelsMatchReference checks the benchmark kernels against the
// reference runner before their speed means anything.
func TestKernelsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	const n = 64
	a, b := randomFloats(n*n, r.Uint64()), randomFloats(n*n, r.Uint64())
	c := make([]float32, n*n)
	l, err := newLauncher(gemmKernel, 0, xpu.Dim3{X: n / 16, Y: n / 16}, []uint32{n}, c, a, b)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if err := l.launch(); err != nil {
		t.Fatal(err)
	}
	got, err := l.read(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c {
		c[i] = float32(math.NaN())
	}
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: n / 16, Y: n / 16}, Block: xpu.Dim3{X: 16, Y: 16}}, Gemm, c, a, b, uint32(n)); err != nil {
		t.Fatal(err)
	}
	for i := range c {
		if got[i] != c[i] {
			t.Fatalf("c[%d] = %v, reference %v", i, got[i], c[i])
		}
	}
	const per, groups = 4, 3
	x := randomFloats(256*per*groups, r.Uint64())
	partial := []float32{float32(math.NaN()), float32(math.NaN()), float32(math.NaN())}
	ls, err := newLauncher(sumKernel, 0, xpu.Dim3{X: groups}, []uint32{per}, partial, x)
	if err != nil {
		t.Fatal(err)
	}
	defer ls.close()
	if err := ls.launch(); err != nil {
		t.Fatal(err)
	}
	gotSum, err := ls.read(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: groups}, Block: xpu.Dim3{X: 256}}, Sum, partial, x, uint32(per)); err != nil {
		t.Fatal(err)
	}
	for i := range partial {
		if gotSum[i] != partial[i] {
			t.Fatalf("partial[%d] = %v, reference %v", i, gotSum[i], partial[i])
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
