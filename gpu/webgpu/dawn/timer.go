//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

var (
	_ driver.Timer           = (*queue)(nil)
	_ driver.ClockCalibrator = (*device)(nil)
)

// timedPasses is the number of passes a queue stamps between two
// collections of their timestamps.
const timedPasses = 64

// passTimer stamps a queue's passes at their boundaries
// (ComputePassDescriptor.timestampWrites) and sums their durations.
// Dawn resolves timestamps to nanoseconds, applying the device's
// timestamp period itself.
type passTimer struct {
	on       bool
	querySet uintptr
	resolve  uintptr // 16 bytes (begin, end) per pass
	passes   int     // passes stamped since the last collection
	total    time.Duration
	dropped  int // passes whose end stamp came before their start
	writes   passTimestampWrites
	desc     computePassDescriptor
	raw      []byte
}

// nextPass returns the descriptor of the next pass: stamped when the
// timer is on, nil (a plain pass) when not. The caller holds d.mu.
func (t *passTimer) nextPass(d *device) (*computePassDescriptor, error) {
	if !t.on {
		return nil, nil
	}
	if t.passes == timedPasses {
		if err := t.collect(d); err != nil {
			return nil, err
		}
	}
	t.writes = passTimestampWrites{querySet: t.querySet, beginIndex: uint32(2 * t.passes), endIndex: uint32(2*t.passes + 1)}
	t.desc = computePassDescriptor{timestampWrites: &t.writes}
	t.passes++
	return &t.desc, nil
}

// collect resolves the stamps of the passes so far, waits for them and
// adds their durations up. The caller holds d.mu, with no pass open.
func (t *passTimer) collect(d *device) error {
	if t.passes == 0 {
		return nil
	}
	n := 16 * t.passes
	staging, err := d.stagingFor(n)
	if err != nil {
		return err
	}
	enc := wgpu.deviceCreateEncoder(d.dev, 0)
	wgpu.encoderResolveQuerySet(enc, t.querySet, 0, uint32(2*t.passes), t.resolve, 0)
	wgpu.encoderCopyBuffer(enc, t.resolve, 0, staging, 0, uint64(n))
	cmd := wgpu.encoderFinish(enc, 0)
	wgpu.encoderRelease(enc)
	wgpu.queueSubmit(d.queue, 1, &cmd)
	wgpu.commandBufferRelease(cmd)
	if err := d.takeErr(); err != nil {
		return fmt.Errorf("dawn: timestamps: %w", err)
	}
	t.raw = append(t.raw[:0], make([]byte, n)...)
	if err := d.mapRead(staging, n, t.raw); err != nil {
		return fmt.Errorf("dawn: timestamps: %w", err)
	}
	for i := range t.passes {
		begin := binary.LittleEndian.Uint64(t.raw[16*i:])
		end := binary.LittleEndian.Uint64(t.raw[16*i+8:])
		if end < begin {
			t.dropped++
			continue
		}
		t.total += time.Duration(end - begin)
	}
	t.passes = 0
	return nil
}

// start turns the timer on, making its query set and resolve buffer on
// first use. The caller holds d.mu.
func (t *passTimer) start(d *device) error {
	if !d.timestamps {
		return fmt.Errorf("dawn: the device lacks timestamp-query: %w", driver.ErrNoTimer)
	}
	if t.querySet == 0 {
		desc := querySetDescriptor{typ: queryTypeTimestamp, count: 2 * timedPasses}
		qs, err := d.scoped(func() uintptr { return wgpu.deviceCreateQuerySet(d.dev, &desc) })
		if err != nil {
			if qs != 0 {
				wgpu.querySetRelease(qs)
			}
			return fmt.Errorf("dawn: timestamp query set: %w", err)
		}
		t.querySet = qs
	}
	if t.resolve == 0 {
		b, err := d.createBuffer(bufferUsageQueryResolve|bufferUsageCopySrc, 16*timedPasses)
		if err != nil {
			return fmt.Errorf("dawn: timestamp buffer: %w", err)
		}
		t.resolve = b
	}
	t.on, t.passes, t.total, t.dropped = true, 0, 0, 0
	return nil
}

func (t *passTimer) release() {
	if t.querySet != 0 {
		wgpu.querySetDestroy(t.querySet)
		wgpu.querySetRelease(t.querySet)
		t.querySet = 0
	}
	if t.resolve != 0 {
		wgpu.bufferRelease(t.resolve)
		t.resolve = 0
	}
	t.on = false
}

// StartTimer submits what was recorded and stamps the passes that follow.
func (q *queue) StartTimer() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if q.ring == 0 {
		return errors.New("dawn: timer on a released queue")
	}
	if err := q.submit(); err != nil {
		return err
	}
	return q.timer.start(d)
}

// StopTimer submits what was recorded, waits for it and returns the sum
// of the stamped passes' durations.
func (q *queue) StopTimer() (time.Duration, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if !q.timer.on {
		return 0, errors.New("dawn: StopTimer without StartTimer")
	}
	err := q.submit()
	if err == nil {
		err = q.timer.collect(d)
	}
	q.timer.on = false
	if err != nil {
		return 0, err
	}
	return q.timer.total, nil
}

// spinKernel runs a dependent chain of n multiply-adds per invocation.
var spinKernel = &driver.Kernel{
	Name:  "dawn.spin",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []driver.Param{
		{Name: "out", Kind: driver.ParamBuffer, Type: "float32", Size: 4, Access: driver.AccessWrite, Binding: 0},
		{Name: "n", Kind: driver.ParamScalar, Type: "uint32", Size: 4, Binding: 0},
	},
	UniformSize: 16,
	WGSL: `
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
`,
}

// calibrationTarget is how long the calibration workload runs, at least.
const calibrationTarget = 20 * time.Millisecond

// CalibrateClock times a spin kernel, grown until it runs for
// calibrationTarget, by the device's stamps and by the host clock.
func (d *device) CalibrateClock() (dev, host time.Duration, err error) {
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
	q, err := d.newQueue()
	if err != nil {
		return 0, 0, err
	}
	defer q.Release()
	uni := make([]byte, 16)
	// The first run, small, warms the pipeline up; later ones double
	// the work until the host sees calibrationTarget.
	for n := uint32(256); ; n *= 4 {
		binary.LittleEndian.PutUint32(uni, n)
		if err := q.StartTimer(); err != nil {
			return 0, 0, err
		}
		if err := q.Launch(p, xpu.Dim3{X: groups, Y: 1, Z: 1}, []driver.Buffer{out}, uni); err != nil {
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
