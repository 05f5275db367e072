package devicebench_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/wave"
	"github.com/goxpu/xpu/schema"
)

// benchDevices are the devices the benchmarks run on when present: the
// CPU backend at its own tier and at the Go tier (XPU_CPU_TIER), and the
// WebGPU backend through each native driver (XPU_WEBGPU picks it at open
// time).
var benchDevices = []struct {
	name    string
	backend schema.Backend
	driver  string
}{
	{"cpu", "cpu", ""},
	{"cpu-go", "cpu", "go"},
	{"wgpu", "webgpu", "wgpu"},
	{"dawn", "webgpu", "dawn"},
	{"cuda", "cuda", ""},
	{"hip", "hip", ""},
}

// reduceN is the length the benchmark reduces: 16 MiB of floats.
const reduceN = 1 << 22

// BenchmarkReduce puts the block reductions side by side on each device,
// in the same run: ReduceShared (shared memory and barriers only),
// ReduceWave (wave sums at the device's width) and ReduceWave32 (wave sums
// at a declared width of 32). It reports each one's rate in GB/s read and
// wave/shared and wave32/shared, the wave reductions' speed over the
// shared one's (above 1 the wave reduction is faster).
func BenchmarkReduce(b *testing.B) { onBenchDevices(b, benchReduce) }

// onBenchDevices runs bench as a sub-benchmark on each of benchDevices
// present (XPU_CPU_TIER or XPU_WEBGPU set to its driver).
func onBenchDevices(b *testing.B, bench func(*testing.B, *gpu.Device)) {
	for _, dev := range benchDevices {
		b.Run(dev.name, func(b *testing.B) {
			switch {
			case dev.backend == schema.BackendCPU && dev.driver != "":
				b.Setenv("XPU_CPU_TIER", dev.driver)
			case dev.driver != "":
				b.Setenv("XPU_WEBGPU", dev.driver)
			}
			if !slices.Contains(gpu.Backends(), dev.backend) {
				b.Skipf("backend %s is not compiled in", dev.backend)
			}
			d, err := gpu.OpenBackend(dev.backend)
			if errors.Is(err, gpu.ErrUnavailable) {
				b.Skip(err)
			}
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			bench(b, d)
		})
	}
}

// reduction is one block reduction's launcher.
type reduction struct {
	name   string
	kernel *gpu.Kernel
	launch func(s *gpu.Stream, groups xpu.Dim3, partial, in *gpu.Buffer[float32], n uint32) error
}

var reductions = []reduction{
	{"shared", wave.ReduceSharedKernel, wave.LaunchReduceShared},
	{"wave", wave.ReduceWaveKernel, wave.LaunchReduceWave},
	{"wave32", wave.ReduceWave32Kernel, wave.LaunchReduceWave32},
}

func benchReduce(b *testing.B, d *gpu.Device) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]float32, reduceN)
	for i := range data {
		data[i] = r.Float32()*2 - 1
	}
	in, err := gpu.Upload(d, data)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Release()
	g := xpu.Dim3{X: xpu.GroupsFor(reduceN, wave.ReduceSharedKernel.Block().X)}
	partial, err := gpu.NewBuffer[float32](d, int(g.X))
	if err != nil {
		b.Fatal(err)
	}
	defer partial.Release()
	s := d.Stream()
	run := func(x reduction) time.Duration {
		t0 := time.Now()
		if err := x.launch(s, g, partial, in, reduceN); err != nil {
			b.Fatal(err)
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	for _, x := range reductions { // warm up: compile and first launch
		run(x)
		c, err := d.KernelWave(x.kernel)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("%s on %s (%s): tier %q, width %d", x.name, d.Backend(), d.Info().Name, c.Tier, c.Width)
	}
	// Each iteration runs every reduction once, starting with a different
	// one each time, so that drift in the device's speed falls on all.
	total := make([]time.Duration, len(reductions))
	i := 0
	for b.Loop() {
		for k := range reductions {
			j := (i + k) % len(reductions)
			total[j] += run(reductions[j])
		}
		i++
	}
	gbs := func(t time.Duration) float64 { return 4 * reduceN * float64(b.N) / t.Seconds() / 1e9 }
	for j, x := range reductions {
		b.ReportMetric(gbs(total[j]), x.name+"-GB/s")
	}
	for j, x := range reductions[1:] {
		b.ReportMetric(gbs(total[j+1])/gbs(total[0]), x.name+"/shared")
	}
	b.ReportMetric(0, "ns/op")
}
