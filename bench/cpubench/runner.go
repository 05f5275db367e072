package cpubench

import (
	"fmt"
	"runtime"

	"github.com/goxpu/xpu/gpu"
)

// openCPU opens the CPU backend through the runtime, as a program does.
// With oneCore set the device runs its blocks on one worker: the backend
// sizes its pool by GOMAXPROCS when it opens, so GOMAXPROCS is 1 while it
// does.
func openCPU(oneCore bool) (*gpu.Device, error) {
	if oneCore {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	}
	dev, err := gpu.OpenBackend("cpu")
	if err != nil {
		return nil, fmt.Errorf("cpubench: %w", err)
	}
	return dev, nil
}

// uploads copies each of inputs into a new buffer of dev.
func uploads(dev *gpu.Device, inputs ...[]float32) ([]*gpu.Buffer[float32], error) {
	var bufs []*gpu.Buffer[float32]
	for _, in := range inputs {
		b, err := gpu.Upload(dev, in)
		if err != nil {
			release(bufs)
			return nil, fmt.Errorf("cpubench: %w", err)
		}
		bufs = append(bufs, b)
	}
	return bufs, nil
}

func release(bufs []*gpu.Buffer[float32]) {
	for _, b := range bufs {
		b.Release()
	}
}
