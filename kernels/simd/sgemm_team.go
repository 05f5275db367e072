package simd

import (
	"sync"
	"sync/atomic"
)

// sgemmTeam is Sgemm on parts goroutines sharing packed B, as BLIS runs
// its threads, but with the work taken rather than dealt: for each block
// of KC rows and NC columns of op(B) (a step), the goroutines take
// chunks of B's panels to pack until none is left, wait until all are
// packed, then take blocks of rows of C (at most MC) until none is left,
// packing each block of A into their own buffer and running the
// micro-kernel over it once the step before has done the same block.
// B's blocks alternate between two buffers, so the next is packed while
// the last is still read, its packing waiting only on the step before
// last being done. Packing is done once, not once
// per goroutine, and a goroutine that starts late or is slowed by
// another program on its core takes less of the work rather than holding
// up the rest.
type sgemmTeam struct {
	g              gemm
	mc             int // rows of C a block
	blocks, chunks int // blocks of rows, chunks of B's panels, a step
	b              [2][]float32
	steps          []sgemmStep
	mu             sync.Mutex
	cond           sync.Cond      // broadcast when a step's packing or blocks are done
	wg             sync.WaitGroup // the goroutines other than the caller's
}

// sgemmStep counts one step's chunks and blocks taken and done.
type sgemmStep struct {
	chunk, packed, block, done atomic.Int64
}

// sgemmSpin is how many times a goroutine looks for what it waits for
// before it sleeps: a wake-up from sleep costs more than the wait
// usually lasts.
const sgemmSpin = 4000

// sgemmMinMC is the fewest rows a team's block of C is cut to, to give
// each goroutine several blocks to take.
const sgemmMinMC = 48

// team runs the product on parts goroutines, the caller's among them.
func (g gemm) team(parts int) {
	buf := sgemmPool.Get().(*sgemmBuffers)
	defer sgemmPool.Put(buf)
	nc, kc := min(sgemmNC, roundUp(g.n, sgemmNR)), min(sgemmKC, g.k)
	buf.b = grow(buf.b, 2*nc*kc)
	per := (g.m + parts*sgemmMC - 1) / (parts * sgemmMC) // blocks a goroutine
	if more := g.m / (parts * sgemmMinMC); per < 4 && more > per {
		per = min(4, more)
	}
	mc := roundUp((g.m+parts*per-1)/(parts*per), sgemmMR)
	steps := (g.n + sgemmNC - 1) / sgemmNC * ((g.k + sgemmKC - 1) / sgemmKC)
	t := &sgemmTeam{g: g, mc: mc, blocks: (g.m + mc - 1) / mc, chunks: min(nc/sgemmNR, 4*parts),
		b: [2][]float32{buf.b[:nc*kc], buf.b[nc*kc:]}, steps: make([]sgemmStep, steps)}
	t.cond.L = &t.mu
	t.wg.Add(parts - 1)
	for range parts - 1 {
		go t.work(true)
	}
	t.work(false)
	t.wg.Wait()
}

// await returns once n reaches total.
func (t *sgemmTeam) await(n *atomic.Int64, total int) {
	for range sgemmSpin {
		if n.Load() == int64(total) {
			return
		}
	}
	t.mu.Lock()
	for n.Load() != int64(total) {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

// finish counts one more of total done in n, waking the waiters at the
// last.
func (t *sgemmTeam) finish(n *atomic.Int64, total int) {
	if n.Add(1) == int64(total) {
		t.mu.Lock()
		t.cond.Broadcast()
		t.mu.Unlock()
	}
}

// work is one goroutine's part: every step, what it can take of it. A
// goroutine other than the caller's says so in t.wg when it is done.
func (t *sgemmTeam) work(started bool) {
	if started {
		defer t.wg.Done()
	}
	g := t.g
	buf := sgemmPool.Get().(*sgemmBuffers)
	defer sgemmPool.Put(buf)
	buf.a = grow(buf.a, t.mc*min(sgemmKC, g.k))
	it := 0
	for jc := 0; jc < g.n; jc += sgemmNC {
		nc := min(sgemmNC, g.n-jc)
		panels := (nc + sgemmNR - 1) / sgemmNR
		chunks := min(panels, t.chunks)
		for pc := 0; pc < g.k; pc += sgemmKC {
			kc := min(sgemmKC, g.k-pc)
			beta := g.beta
			if pc > 0 {
				beta = 1 // the blocks of k before are in C
			}
			s, b := &t.steps[it], t.b[it%2]
			if it >= 2 {
				t.await(&t.steps[it-2].done, t.blocks) // b is free
			}
			for c := int(s.chunk.Add(1) - 1); c < chunks; c = int(s.chunk.Add(1) - 1) {
				q0, q1 := panels*c/chunks*sgemmNR, min(nc, panels*(c+1)/chunks*sgemmNR)
				g.packB(b[q0*kc:], pc, kc, jc+q0, q1-q0)
				t.finish(&s.packed, chunks)
			}
			t.await(&s.packed, chunks)
			if it >= 1 {
				t.await(&t.steps[it-1].done, t.blocks) // C holds the steps before
			}
			for i := int(s.block.Add(1) - 1); i < t.blocks; i = int(s.block.Add(1) - 1) {
				ic := i * t.mc
				mc := min(t.mc, g.m-ic)
				g.packA(buf.a, ic, mc, pc, kc)
				g.tiles(buf, b, ic, mc, jc, nc, kc, beta)
				t.finish(&s.done, t.blocks)
			}
			it++
		}
	}
}
