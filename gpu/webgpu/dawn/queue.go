//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// ringBytes is the size of a queue's uniform ring: the launches' scalars
// between two submits, each at an aligned offset (1024 launches at the
// usual 256-byte alignment).
const ringBytes = 256 << 10

// queue records launches into one command encoder and one compute pass,
// and submits them at Flush, at Sync, or when the uniform ring is full.
// Locks are taken in the order q.mu, then the device's mu.
type queue struct {
	d *device

	mu     sync.Mutex
	ring   uintptr // device uniform buffer, bound at dynamic offsets
	ringID uint64
	slab   []byte // host image of the ring, written before each submit
	used   int

	enc  uintptr
	cp   uintptr
	pass uint64       // serial number of the open pass
	held []*bindGroup // bind groups the open pass set
	last *program     // pipeline set last in the open pass
	key  []byte       // scratch for bind group keys
	bufs []*buffer    // scratch for Launch
	offs [1]uint32    // scratch for the dynamic offset

	timer passTimer
}

var _ driver.Queue = (*queue)(nil)

func (d *device) newQueue() (*queue, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ring, err := d.createBuffer(bufferUsageUniform|bufferUsageCopyDst, ringBytes)
	if err != nil {
		return nil, fmt.Errorf("dawn: uniform ring: %w", err)
	}
	return &queue{d: d, ring: ring, ringID: d.nextID.Add(1), slab: make([]byte, ringBytes)}, nil
}

// Launch records a dispatch of p over groups in the open pass.
func (q *queue) Launch(dp driver.Program, groups xpu.Dim3, bufs []driver.Buffer, uniforms []byte) error {
	p, ok := dp.(*program)
	if !ok || p.d != q.d {
		return fmt.Errorf("dawn: launch of a program of another device or driver (%T)", dp)
	}
	if len(bufs) != p.buffers || len(uniforms) != p.uniforms {
		return fmt.Errorf("dawn: kernel %s takes %d buffers and %d uniform bytes, got %d and %d",
			p.name, p.buffers, p.uniforms, len(bufs), len(uniforms))
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring == 0 {
		return errors.New("dawn: launch on a released queue")
	}
	q.bufs = q.bufs[:0]
	for i, db := range bufs {
		b, ok := db.(*buffer)
		if !ok || b.d != q.d {
			return fmt.Errorf("dawn: kernel %s: buffer %d is not a buffer of this device", p.name, i)
		}
		q.bufs = append(q.bufs, b)
	}
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, b := range q.bufs {
		if b.b == 0 {
			clear(q.bufs)
			return fmt.Errorf("dawn: kernel %s: buffer %d is released", p.name, i)
		}
	}
	slot := (p.uniforms + d.uniformAlign - 1) / d.uniformAlign * d.uniformAlign
	if q.used+slot > len(q.slab) {
		if err := q.submit(); err != nil {
			return err
		}
	}
	if q.enc == 0 {
		if err := q.begin(); err != nil {
			return err
		}
	}
	g, err := d.groups.hold(q, p, q.bufs)
	clear(q.bufs)
	if err != nil {
		return fmt.Errorf("dawn: kernel %s: bind group: %w", p.name, err)
	}
	if q.last != p {
		wgpu.passSetPipeline(q.cp, p.pipeline)
		q.last = p
	}
	if p.uniforms > 0 {
		q.offs[0] = uint32(q.used)
		copy(q.slab[q.used:], uniforms)
		q.used += slot
		wgpu.passSetBindGroup(q.cp, 0, g, 1, &q.offs[0])
	} else {
		wgpu.passSetBindGroup(q.cp, 0, g, 0, nil)
	}
	wgpu.passDispatch(q.cp, groups.X, groups.Y, groups.Z)
	return nil
}

// begin opens an encoder and a compute pass, stamped at its boundaries
// when the queue is timing. The caller holds q.mu and d.mu.
func (q *queue) begin() error {
	if err := q.d.lostErr(); err != nil {
		return err
	}
	desc, err := q.timer.nextPass(q.d)
	if err != nil {
		return err
	}
	q.enc = wgpu.deviceCreateEncoder(q.d.dev, 0)
	if q.enc == 0 {
		return errors.New("dawn: no command encoder")
	}
	q.cp = wgpu.encoderBeginCompute(q.enc, desc)
	q.pass++
	return nil
}

// submit ends the open pass, writes the ring and submits, and returns
// the errors the device reported since the last submit. The caller holds
// q.mu and d.mu.
func (q *queue) submit() error {
	d := q.d
	if q.enc == 0 {
		return d.takeErr()
	}
	wgpu.passEnd(q.cp)
	wgpu.passRelease(q.cp)
	cmd := wgpu.encoderFinish(q.enc, 0)
	wgpu.encoderRelease(q.enc)
	q.cp, q.enc, q.last = 0, 0, nil
	if q.used > 0 {
		wgpu.queueWriteBuffer(d.queue, q.ring, 0, unsafe.Pointer(&q.slab[0]), uintptr(q.used))
	}
	if cmd != 0 {
		wgpu.queueSubmit(d.queue, 1, &cmd)
		wgpu.commandBufferRelease(cmd)
	}
	q.used = 0
	d.groups.unhold(q.held)
	clear(q.held)
	q.held = q.held[:0]
	if err := d.takeErr(); err != nil {
		return fmt.Errorf("dawn: submit: %w", err)
	}
	return nil
}

// Flush submits what was recorded.
func (q *queue) Flush() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.d.mu.Lock()
	defer q.d.mu.Unlock()
	return q.submit()
}

// Sync submits what was recorded and waits for the device to finish it.
func (q *queue) Sync() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.d.mu.Lock()
	defer q.d.mu.Unlock()
	err := q.submit()
	return errors.Join(err, q.d.waitIdle())
}

// Release submits what is left and frees the ring and the timer.
func (q *queue) Release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	d := q.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if q.ring == 0 {
		return
	}
	_ = q.submit()
	d.groups.evict(q.ringID)
	wgpu.bufferRelease(q.ring)
	q.ring = 0
	q.timer.release()
}
