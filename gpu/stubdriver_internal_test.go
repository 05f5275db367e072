package gpu

import (
	"context"
	"slices"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// stubDevice is a driver that runs nothing: it reports the Info it is
// given, compiles every kernel, allocates buffers of no memory, and its
// queue, when it records, keeps what each launch hands it, so that a test
// sees what the runtime made of a launch.
type stubDevice struct {
	info driver.Info
	q    *stubQueue
}

// stubQueue is a stubDevice's queue; one of record keeps each launch.
type stubQueue struct {
	record   bool
	launches []stubLaunch
}

// stubLaunch is one launch as a stubQueue received it.
type stubLaunch struct {
	groups   xpu.Dim3
	bufs     []driver.Buffer
	uniforms []byte
}

type stubProgram struct{}

type stubBuffer struct{ size int }

// stubBackend is the backend a stub device names.
const stubBackend schema.Backend = "stub"

// newStub opens a device of a stubDevice reporting info; its queue
// records when record is set.
func newStub(info driver.Info, record bool) (*Device, *stubQueue, error) {
	q := &stubQueue{record: record}
	d, err := newDevice(info.Backend, stubDevice{info, q})
	return d, q, err
}

func (d stubDevice) Info() driver.Info { return d.info }

// Artifact picks as the drivers do, by the device's subgroup sizes when
// it has subgroups.
func (d stubDevice) Artifact(k *driver.Kernel) *schema.Artifact {
	var lo, hi uint32
	if d.info.Subgroups {
		lo, hi = d.info.Limits.SubgroupMin, d.info.Limits.SubgroupMax
	}
	return driver.Pick(k, d.info.Backend, lo, hi)
}

func (stubDevice) Compile(*driver.Kernel) (driver.Program, error) { return stubProgram{}, nil }
func (stubDevice) NewBuffer(size int) (driver.Buffer, error)      { return &stubBuffer{size}, nil }
func (d stubDevice) NewQueue() (driver.Queue, error)              { return d.q, nil }
func (stubDevice) Close() error                                   { return nil }

func (stubProgram) Release() {}

func (b *stubBuffer) Size() int                                     { return b.size }
func (*stubBuffer) Write(int, []byte) error                         { return nil }
func (*stubBuffer) Read(_ context.Context, _ int, dst []byte) error { clear(dst); return nil }
func (*stubBuffer) Release()                                        {}

func (q *stubQueue) Launch(_ context.Context, _ driver.Program, g xpu.Dim3, bufs []driver.Buffer, u []byte) error {
	if q.record {
		q.launches = append(q.launches, stubLaunch{g, slices.Clone(bufs), slices.Clone(u)})
	}
	return nil
}
func (*stubQueue) Flush(context.Context) error { return nil }
func (*stubQueue) Sync(context.Context) error  { return nil }
func (*stubQueue) Release()                    {}
