package core

// This file implements the device timer for an API that can stamp passes
// with timestamp queries: driver.Timer and driver.ClockCalibrator.

import (
	"context"
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Stamper is implemented by an API that can stamp the start and end of
// its passes (WebGPU's ComputePassDescriptor.timestampWrites).
type Stamper interface {
	// NewStamps makes a timestamp query set of count queries and what it
	// takes to read them back. Its error wraps driver.ErrNoTimer when the
	// device cannot stamp (no timestamp-query).
	NewStamps(count int) (Stamps, error)
	// BeginStampedPass is BeginPass for a pass stamped into s at its
	// start (query 2*i) and its end (query 2*i+1).
	BeginStampedPass(s Stamps, i int) (Pass, error)
}

// Stamps is a timestamp query set.
type Stamps interface {
	// Read resolves the first len(dst) queries, waits for them after
	// every submitted pass and writes them into dst, in nanoseconds.
	Read(dst []uint64) error
	Release()
}

// timedPasses is the number of passes a queue stamps between two
// collections of their timestamps.
const timedPasses = 64

// passTimer stamps a queue's passes and sums their durations.
type passTimer struct {
	on      bool
	stamps  Stamps
	passes  int // passes stamped since the last collection
	total   time.Duration
	dropped int // passes whose end stamp came before their start
	raw     []uint64
}

// begin opens the next pass, stamped. The caller holds the queue's mu,
// with no pass open.
func (t *passTimer) begin(d *Device) (Pass, error) {
	if t.passes == timedPasses {
		if err := t.collect(d); err != nil {
			return nil, err
		}
	}
	p, err := d.api.(Stamper).BeginStampedPass(t.stamps, t.passes)
	if err != nil {
		return nil, err
	}
	t.passes++
	return p, nil
}

// collect reads the stamps of the passes so far and adds their durations
// up. The caller holds the queue's mu, with no pass open.
func (t *passTimer) collect(d *Device) error {
	if t.passes == 0 {
		return nil
	}
	t.raw = slices.Grow(t.raw[:0], 2*t.passes)[:2*t.passes]
	if err := t.stamps.Read(t.raw); err != nil {
		return fmt.Errorf("%s: timestamps: %w", d.name, err)
	}
	for i := range t.passes {
		begin, end := t.raw[2*i], t.raw[2*i+1]
		if end < begin {
			t.dropped++
			continue
		}
		t.total += time.Duration(end - begin)
	}
	t.passes = 0
	return nil
}

// start turns the timer on, making its query set on first use.
func (t *passTimer) start(d *Device) error {
	if t.stamps == nil {
		s, err := d.api.(Stamper).NewStamps(2 * timedPasses)
		if err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		t.stamps = s
	}
	t.on, t.passes, t.total, t.dropped = true, 0, 0, 0
	return nil
}

func (t *passTimer) release() {
	if t.stamps != nil {
		t.stamps.Release()
		t.stamps = nil
	}
	t.on = false
}

// timedQueue is the Queue of a device whose API is a Stamper.
type timedQueue struct{ *Queue }

var _ driver.Timer = timedQueue{}

// StartTimer submits what was recorded and stamps the passes that follow.
func (q timedQueue) StartTimer() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring == nil {
		return fmt.Errorf("%s: timer on a released queue", q.d.name)
	}
	if err := q.submit(context.Background()); err != nil {
		return err
	}
	return q.timer.start(q.d)
}

// StopTimer submits what was recorded, waits for it and returns the sum
// of the stamped passes' durations.
func (q timedQueue) StopTimer() (time.Duration, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.timer.on {
		return 0, fmt.Errorf("%s: StopTimer without StartTimer", q.d.name)
	}
	err := q.submit(context.Background())
	if err == nil {
		err = q.timer.collect(q.d)
	}
	q.timer.on = false
	if err != nil {
		return 0, err
	}
	return q.timer.total, nil
}

// timedDevice is the Device of an API that is a Stamper.
type timedDevice struct{ *Device }

var _ driver.ClockCalibrator = timedDevice{}

// NewQueue returns a queue that can time its passes.
func (d timedDevice) NewQueue() (driver.Queue, error) {
	q, err := d.newQueue()
	if err != nil {
		return nil, err
	}
	return timedQueue{q}, nil
}

// spinKernel runs a dependent chain of n multiply-adds per invocation.
var spinKernel = &driver.Kernel{
	Name:  "webgpu.spin",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
struct Uniforms { n: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<uniform> u: Uniforms;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	var x = f32(gid.x);
	for (var i = 0u; i < u.n; i++) {
		x = x * 0.999 + 1.0;
	}
	out[gid.x] = x;
}
`},
	},
}

// calibrationTarget is how long the calibration workload runs, at least.
const calibrationTarget = 20 * time.Millisecond

// CalibrateClock times a spin kernel, grown until it runs for
// calibrationTarget, by the device's stamps and by the host clock.
func (d timedDevice) CalibrateClock() (dev, host time.Duration, err error) {
	p, err := d.Compile(spinKernel)
	if err != nil {
		return 0, 0, err
	}
	defer p.Release()
	const groups = 16
	out, err := d.NewBuffer(4 * 64 * groups)
	if err != nil {
		return 0, 0, err
	}
	defer out.Release()
	dq, err := d.newQueue()
	if err != nil {
		return 0, 0, err
	}
	q := timedQueue{dq}
	defer q.Release()
	uni := make([]byte, 16)
	// The first run, small, warms the pipeline up; later ones double
	// the work until the host sees calibrationTarget.
	for n := uint32(256); ; n *= 4 {
		binary.LittleEndian.PutUint32(uni, n)
		if err := q.StartTimer(); err != nil {
			return 0, 0, err
		}
		if err := q.Launch(context.Background(), p, xpu.Dim3{X: groups, Y: 1, Z: 1}, []driver.Buffer{out}, uni); err != nil {
			return 0, 0, err
		}
		t0 := time.Now()
		dev, err = q.StopTimer()
		host = time.Since(t0)
		if err != nil || (n > 256 && host >= calibrationTarget) || n >= 1<<26 {
			runtime.KeepAlive(uni)
			return dev, host, err
		}
	}
}
