package cpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// pool runs the blocks of a launch on up to workers goroutines, each
// taking chunks of consecutive blocks from a shared counter: one block
// function call per block at the Go tier, one call of the host entry per
// chunk at the host tier.
type pool struct{ workers int }

// chunksPerWorker balances the load of uneven blocks against the cost of
// taking a chunk.
const chunksPerWorker = 8

// run calls fn once per block of proto.Groups and returns the first
// failure of any block, after every block has run. When ctx is done
// first, the blocks stop at their next loop iteration (CPUBlock.Poll) and
// run returns an error wrapping driver.ErrTimeout.
func (p *pool) run(ctx context.Context, fn driver.CPUFunc, proto driver.CPUBlock) error {
	var stopped atomic.Bool // a block stopped for ctx
	if ctx.Done() != nil {
		stop := new(atomic.Bool)
		proto.Stop = stop
		defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	}
	total := proto.Groups.Count()
	workers, chunk := p.plan(total, 1)
	// Each worker's own block, allocated apart: a worker writes its
	// Group at every block, and neighbours in one array would share
	// cache lines.
	blocks := make([]*driver.CPUBlock, workers)
	for w := range blocks {
		b := proto
		blocks[w] = &b
	}
	var first firstError
	p.spread(total, workers, chunk, func(w int, lo, hi uint64) bool {
		b := blocks[w]
		for lo < hi {
			var err error
			lo, err = runBlocks(fn, b, lo, hi)
			if errors.Is(err, driver.ErrStopped) {
				stopped.Store(true)
				return false
			}
			first.set(err)
		}
		return true
	})
	if stopped.Load() {
		return stoppedError(ctx)
	}
	return first.err
}

// stoppedError is the error of a launch that stopped because ctx was
// done, the same at every tier.
func stoppedError(ctx context.Context) error {
	return fmt.Errorf("%w: the launch stopped before its end (%w)", driver.ErrTimeout, context.Cause(ctx))
}

// firstError keeps the first error set, of any worker.
type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) set(err error) {
	if err == nil {
		return
	}
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
}

// plan returns how many workers run a launch of total blocks, and how
// many consecutive blocks each takes at a time: at least least.
func (p *pool) plan(total, least uint64) (workers int, chunk uint64) {
	w := uint64(max(p.workers, 1))
	chunk = max(total/(w*chunksPerWorker), least, 1)
	return int(min(w, (total+chunk-1)/chunk)), chunk
}

// spread runs the blocks 0 to total-1 on up to workers goroutines (the
// caller's among them), each taking chunks of chunk blocks from a shared
// counter: work(w, lo, hi) runs the blocks lo to hi-1 on worker w, and
// returns false when w is to take no more. It returns once every worker
// that took a chunk is done.
//
// The other workers are helpers (helper.go): a goroutine that has run a
// launch's share waits a little for the next launch's, so that launches
// in a row find it running instead of waking a new one, which can take
// longer than a small launch's blocks. A helper that comes late, after
// the caller has taken every chunk, does nothing.
func (p *pool) spread(total uint64, workers int, chunk uint64, work func(w int, lo, hi uint64) bool) {
	s := &share{total: total, chunk: chunk, work: work}
	for w := 1; w < workers; w++ {
		hand(func() { s.join(w) })
	}
	s.loop(0)
	s.done.Store(true)
	for s.active.Load() != 0 {
		runtime.Gosched()
	}
}

// share is one launch's blocks, which its workers take chunk by chunk.
type share struct {
	next         atomic.Uint64
	total, chunk uint64
	work         func(w int, lo, hi uint64) bool
	// active counts the helpers taking chunks; done is set once the
	// caller took its last, after which a helper takes none.
	active atomic.Int32
	done   atomic.Bool
}

func (s *share) loop(w int) {
	for {
		lo := s.next.Add(s.chunk) - s.chunk
		if lo >= s.total || !s.work(w, lo, min(lo+s.chunk, s.total)) {
			return
		}
	}
}

// join runs worker w's chunks, unless the launch is over: the caller
// waits for a helper that counted itself active before it saw done.
func (s *share) join(w int) {
	s.active.Add(1)
	defer s.active.Add(-1)
	if !s.done.Load() {
		s.loop(w)
	}
}

// runBlocks runs the blocks lo to hi-1 in order, stepping the group
// coordinates instead of dividing for each block. A block that panics
// stops the run with an error naming it; next is the block to resume at,
// so that a failed block does not stop the others. One deferred recover
// serves the whole run.
func runBlocks(fn driver.CPUFunc, b *driver.CPUBlock, lo, hi uint64) (next uint64, err error) {
	g := b.Groups
	i := lo
	defer func() {
		if r := recover(); r == driver.ErrStopped {
			next, err = hi, driver.ErrStopped
		} else if r != nil {
			next, err = i+1, fmt.Errorf("group %v: %v", b.Group, r)
		}
	}()
	gx := uint64(g.X)
	b.Group = xpu.Dim3{
		X: uint32(i % gx),
		Y: uint32(i / gx % uint64(g.Y)),
		Z: uint32(i / (gx * uint64(g.Y))),
	}
	for ; i < hi; i++ {
		b.Poll()
		fn(b)
		if b.Group.X++; b.Group.X == g.X {
			b.Group.X = 0
			if b.Group.Y++; b.Group.Y == g.Y {
				b.Group.Y = 0
				b.Group.Z++
			}
		}
	}
	return hi, nil
}
