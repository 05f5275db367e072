package devicebench_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// BenchmarkReferenceRaceCheck times the reference runs of the whole suite
// with the race check off and on, alternating in each round so that both
// see the same machine: the check's cost is the ratio on/off.
func BenchmarkReferenceRaceCheck(b *testing.B) {
	suite := func(rc xpu.RaceCheck) time.Duration {
		start := time.Now()
		for _, c := range conformance.Cases() {
			in := c.Setup(rand.New(rand.NewPCG(1, 0)))
			if err := c.Kernel.ReferenceWith(gpu.ReferenceOptions{RaceCheck: rc}, in.Groups, gputest.ReferenceArgs(in)...); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	var off, on time.Duration
	for b.Loop() {
		off += suite(xpu.RaceCheckOff)
		on += suite(xpu.RaceCheckOn)
	}
	b.ReportMetric(float64(off.Milliseconds())/float64(b.N), "off-ms/op")
	b.ReportMetric(float64(on.Milliseconds())/float64(b.N), "on-ms/op")
	b.ReportMetric(float64(on)/float64(off), "on/off")
}
