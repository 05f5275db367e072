package cpubench

import (
	"fmt"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/cpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// The kernels as the CPU backend sees them, with their Go lowering.
var (
	saxpyKernel = &driver.Kernel{Name: "cpubench.Saxpy", Block: xpu.Dim3{X: 256, Y: 1, Z: 1},
		Params: buffersThenScalars(2, 2), UniformSize: 16, CPU: saxpyCPU}
	sumKernel = &driver.Kernel{Name: "cpubench.Sum", Block: xpu.Dim3{X: 256, Y: 1, Z: 1},
		Params: buffersThenScalars(2, 1), UniformSize: 16, CPU: sumCPU}
	gemmKernel = &driver.Kernel{Name: "cpubench.Gemm", Block: xpu.Dim3{X: 16, Y: 16, Z: 1},
		Params: buffersThenScalars(3, 1), UniformSize: 16, CPU: gemmCPU}
)

func buffersThenScalars(buffers, scalars int) []driver.Param {
	var ps []driver.Param
	for i := range buffers {
		ps = append(ps, driver.Param{Kind: driver.ParamBuffer, Type: "float32", Size: 4, Binding: i})
	}
	for i := range scalars {
		ps = append(ps, driver.Param{Kind: driver.ParamScalar, Size: 4, Binding: 4 * i})
	}
	return ps
}

// launcher runs one kernel repeatedly on a CPU device with fixed buffers.
type launcher struct {
	dev      driver.Device
	prog     driver.Program
	queue    driver.Queue
	bufs     []driver.Buffer
	uniforms []byte
	groups   xpu.Dim3
}

// newLauncher opens a CPU device of workers workers (0: GOMAXPROCS) and
// uploads the inputs.
func newLauncher(k *driver.Kernel, workers int, groups xpu.Dim3, uniforms []uint32, inputs ...[]float32) (*launcher, error) {
	dev, err := cpu.New(cpu.Config{Workers: workers})
	if err != nil {
		return nil, err
	}
	l := &launcher{dev: dev, groups: groups, uniforms: make([]byte, k.UniformSize)}
	copy(driver.CPUView[uint32](l.uniforms), uniforms)
	if l.prog, err = dev.Compile(k); err != nil {
		return nil, err
	}
	if l.queue, err = dev.NewQueue(); err != nil {
		return nil, err
	}
	for _, in := range inputs {
		b, err := dev.NewBuffer(4 * len(in))
		if err != nil {
			return nil, err
		}
		if err := b.Write(0, floatBytes(in)); err != nil {
			return nil, err
		}
		l.bufs = append(l.bufs, b)
	}
	return l, nil
}

func (l *launcher) launch() error {
	if err := l.queue.Launch(l.prog, l.groups, l.bufs, l.uniforms); err != nil {
		return err
	}
	return l.queue.Sync()
}

// read returns buffer i as float32s.
func (l *launcher) read(i int) ([]float32, error) {
	out := make([]float32, l.bufs[i].Size()/4)
	if err := l.bufs[i].Read(0, floatBytes(out)); err != nil {
		return nil, fmt.Errorf("cpubench: %w", err)
	}
	return out, nil
}

func (l *launcher) close() {
	for _, b := range l.bufs {
		b.Release()
	}
	l.queue.Release()
	l.prog.Release()
	l.dev.Close()
}

// floatBytes returns the bytes of v, sharing its memory.
func floatBytes(v []float32) []byte {
	return unsafeBytes(v)
}
