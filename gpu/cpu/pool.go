package cpu

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// pool runs the blocks of a launch on up to workers goroutines, each
// taking chunks of consecutive blocks from a shared counter.
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
	g := proto.Groups
	total := g.Count()
	workers := uint64(max(p.workers, 1))
	chunk := max(total/(workers*chunksPerWorker), 1)
	workers = min(workers, (total+chunk-1)/chunk)

	var (
		next  atomic.Uint64
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
	}
	work := func() {
		b := proto
		for {
			lo := next.Add(chunk) - chunk
			if lo >= total {
				return
			}
			hi := min(lo+chunk, total)
			for lo < hi {
				var err error
				lo, err = runBlocks(fn, &b, lo, hi)
				if errors.Is(err, driver.ErrStopped) {
					stopped.Store(true)
					return
				}
				if err != nil {
					fail(err)
				}
			}
		}
	}
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	if stopped.Load() {
		return fmt.Errorf("%w: the launch stopped before its end (%w)", driver.ErrTimeout, context.Cause(ctx))
	}
	return first
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
