package cpu

import (
	"context"
	"errors"
	"fmt"
	"math/bits"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// queue runs each launch when it is recorded: the CPU has nothing to gain
// from deferring, and an error then comes back from Launch itself.
type queue struct{ dev *device }

// Launch checks the launch and runs it to completion on the pool, at its
// program's tier, or until ctx is done.
func (q *queue) Launch(ctx context.Context, p driver.Program, groups xpu.Dim3, bufs []driver.Buffer, uniforms []byte) error {
	prog, ok := p.(*program)
	if !ok || prog.dev != q.dev {
		return fmt.Errorf("%w: program of another device", ErrLaunch)
	}
	k := prog.k
	groups = groups.Norm()
	if groups.Count() == 0 {
		return fmt.Errorf("%w: %s: empty grid %v", ErrLaunch, k.Name, groups)
	}
	// The pool counts blocks in a uint64: a grid of more would wrap.
	if hi, _ := bits.Mul64(uint64(groups.X)*uint64(groups.Y), uint64(groups.Z)); hi != 0 {
		return fmt.Errorf("%w: %s: grid %v has more than 2^64 blocks", ErrLaunch, k.Name, groups)
	}
	if len(bufs) != prog.buffers {
		return fmt.Errorf("%w: %s takes %d buffers, got %d", ErrLaunch, k.Name, prog.buffers, len(bufs))
	}
	if len(uniforms) < k.UniformSize {
		return fmt.Errorf("%w: %s: %d uniform bytes, want %d", ErrLaunch, k.Name, len(uniforms), k.UniformSize)
	}
	mem := make([][]byte, len(bufs))
	for i, b := range bufs {
		m, err := q.dev.bytesOf(b)
		if err != nil {
			return fmt.Errorf("%w: %s: buffer %d: %w", ErrLaunch, k.Name, i, err)
		}
		mem[i] = m
	}
	var err error
	if prog.host != 0 {
		err = q.dev.pool.runHost(ctx, prog, groups, mem, uniforms)
	} else {
		// An aligned copy: the caller may reuse uniforms once Launch returns.
		u := wordBytes(make([]uint64, (len(uniforms)+7)/8))[:len(uniforms)]
		copy(u, uniforms)
		err = q.dev.pool.run(ctx, prog.run, driver.CPUBlock{Groups: groups, Wave: prog.wave, Buffers: mem, Uniforms: u})
	}
	if errors.Is(err, driver.ErrTimeout) {
		return fmt.Errorf("cpu: %w", err)
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrKernel, k.Name, err)
	}
	return nil
}

// Flush has nothing to submit: launches ran when recorded.
func (q *queue) Flush(context.Context) error { return nil }

// Sync has nothing to wait for: launches ran when recorded.
func (q *queue) Sync(context.Context) error { return nil }

func (q *queue) Release() {}
