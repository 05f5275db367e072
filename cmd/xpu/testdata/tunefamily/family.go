// Package tunefamily registers a family for the test of `xpu tune`: the
// conformance suite's Scale members over two problem sizes.
package tunefamily

import (
	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/tune"
)

func groups(n int) xpu.Dim3 { return xpu.Dim3{X: xpu.GroupsFor(uint32(n), 64)} }

// Family is Scale's members over n elements, bucketed by powers of two.
var Family = tune.Register(&tune.Family[int]{
	Name:    "github.com/goxpu/xpu/kernels/conformance.Scale",
	Members: []*gpu.Kernel{conformance.Scale2Kernel, conformance.Scale3Kernel, conformance.ScaleNegKernel},
	Key:     func(n int) tune.Key { return tune.KeyOf(tune.Dim{Name: "n", Size: tune.Pow2(n)}) },
	Need:    func(k *gpu.Kernel, n int) tune.Need { return tune.Need{Groups: groups(n), BufferBytes: 4 * uint64(n)} },
	Probe: func(s *gpu.Stream, n int) (func(k *gpu.Kernel) error, func(), error) {
		y, err := gpu.NewBuffer[int32](s.Device(), n)
		if err != nil {
			return nil, nil, err
		}
		return func(k *gpu.Kernel) error { return s.Launch(k, groups(n), y, uint32(n)) }, y.Release, nil
	},
	Shapes: []int{1 << 16, 1 << 20},
})
