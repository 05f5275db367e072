package simd

import (
	"sync"
	"sync/atomic"
)

// sgemmTeam is Sgemm on parts goroutines sharing one packed B, as BLIS
// runs its threads: for each block of KC rows and NC columns of op(B),
// each goroutine packs its share of B's panels, all wait for all, then
// each takes the next block of MC rows of C that none has taken, packs
// that block of A into its own buffer and runs the micro-kernel over it,
// and all wait for all again before B's next block is packed. Packing is
// done once, not once per goroutine, and a goroutine slowed by another
// program on its core takes fewer blocks rather than holding up the
// rest.
type sgemmTeam struct {
	g     gemm
	parts int
	b     []float32    // the shared packed B
	next  atomic.Int64 // claims of row blocks, over all the blocks of B
	mu    sync.Mutex
	cond  sync.Cond
	count int // goroutines waiting at the barrier
	round int // barriers passed
}

// team runs the product on parts goroutines, the caller's among them.
func (g gemm) team(parts int) {
	buf := sgemmPool.Get().(*sgemmBuffers)
	defer sgemmPool.Put(buf)
	buf.b = grow(buf.b, min(sgemmNC, roundUp(g.n, sgemmNR))*min(sgemmKC, g.k))
	t := &sgemmTeam{g: g, parts: parts, b: buf.b}
	t.cond.L = &t.mu
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Go(func() { t.work(p) })
	}
	t.work(0)
	wg.Wait()
}

// wait returns once all the team's goroutines have called it.
func (t *sgemmTeam) wait() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.count++; t.count == t.parts {
		t.count = 0
		t.round++
		t.cond.Broadcast()
		return
	}
	for round := t.round; round == t.round; {
		t.cond.Wait()
	}
}

// work is goroutine id's part. Each goroutine's claims of a block of B
// end with one past the last row block, so that block of B number it
// owns the claims it*(blocks+parts) up to (it+1)*(blocks+parts).
func (t *sgemmTeam) work(id int) {
	g := t.g
	buf := sgemmPool.Get().(*sgemmBuffers)
	defer sgemmPool.Put(buf)
	buf.a = grow(buf.a, sgemmMC*min(sgemmKC, g.k))
	blocks := (g.m + sgemmMC - 1) / sgemmMC
	it := 0
	for jc := 0; jc < g.n; jc += sgemmNC {
		nc := min(sgemmNC, g.n-jc)
		panels := (nc + sgemmNR - 1) / sgemmNR
		q0, q1 := panels*id/t.parts*sgemmNR, min(nc, panels*(id+1)/t.parts*sgemmNR)
		for pc := 0; pc < g.k; pc += sgemmKC {
			kc := min(sgemmKC, g.k-pc)
			beta := g.beta
			if pc > 0 {
				beta = 1 // the blocks of k before are in C
			}
			if q0 < q1 {
				g.packB(t.b[q0*kc:], pc, kc, jc+q0, q1-q0)
			}
			t.wait()
			base := int64(it * (blocks + t.parts))
			for {
				i := int(t.next.Add(1) - 1 - base)
				if i >= blocks {
					break
				}
				ic := i * sgemmMC
				mc := min(sgemmMC, g.m-ic)
				g.packA(buf.a, ic, mc, pc, kc)
				g.tiles(buf, t.b, ic, mc, jc, nc, kc, beta)
			}
			t.wait()
			it++
		}
	}
}
