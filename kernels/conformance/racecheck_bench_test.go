package conformance_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/conformance"
)

// BenchmarkReferenceRaceCheck times the reference runs of the whole suite
// with the race check on and off, side by side: the check's cost.
func BenchmarkReferenceRaceCheck(b *testing.B) {
	for _, mode := range []struct {
		name string
		rc   xpu.RaceCheck
	}{{"off", xpu.RaceCheckOff}, {"on", xpu.RaceCheckOn}} {
		b.Run("racecheck="+mode.name, func(b *testing.B) {
			for b.Loop() {
				for _, c := range conformance.Cases() {
					in := c.Setup(rand.New(rand.NewPCG(1, 0)))
					if err := c.Kernel.ReferenceWith(gpu.ReferenceOptions{RaceCheck: mode.rc}, in.Groups, conformance.ReferenceArgs(in)...); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
