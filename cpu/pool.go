package cpu

import (
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
// failure of any block, after every block has run.
func (p *pool) run(fn driver.CPUFunc, proto driver.CPUBlock) error {
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
	work := func() {
		b := proto
		for {
			lo := next.Add(chunk) - chunk
			if lo >= total {
				return
			}
			for i := lo; i < min(lo+chunk, total); i++ {
				b.Group = xpu.Dim3{
					X: uint32(i % uint64(g.X)),
					Y: uint32(i / uint64(g.X) % uint64(g.Y)),
					Z: uint32(i / (uint64(g.X) * uint64(g.Y))),
				}
				if err := runBlock(fn, &b); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
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
	return first
}

// runBlock runs one block, turning a panic into an error naming it.
func runBlock(fn driver.CPUFunc, b *driver.CPUBlock) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("group %v: %v", b.Group, r)
		}
	}()
	fn(b)
	return nil
}
