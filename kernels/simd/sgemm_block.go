package simd

import (
	"runtime"
	"sync"
)

// Sgemm's blocking, after GotoBLAS and BLIS: op(B) is copied KC rows by
// NC columns at a time into panels of NR columns, op(A) MC rows by KC
// columns at a time into panels of MR rows, each panel k-major and
// zero-padded to its full width, so that the micro-kernel (sgemmTile)
// reads both in order, one MR x NR tile of C per call, and an edge needs
// no kernel of its own: its tile is computed whole into a scratch tile
// and only the part inside C written back.
const (
	sgemmMR = 6    // rows of a tile: 6 broadcasts of A per step of k
	sgemmNR = 32   // columns of a tile: two 16-lane vectors of B, 12 accumulators (AVX2: two halves of 16)
	sgemmKC = 256  // depth of a panel: one of A and one of B (6 KiB + 32 KiB) stay in L1 (an AVX2 half: 16 KiB of B)
	sgemmMC = 144  // rows of packed A, MC x KC (144 KiB), which stays in L2
	sgemmNC = 4096 // columns of packed B, KC x NC (4 MiB), which stays in L3
)

// sgemmGrain is the fewest multiply-adds worth a goroutine of their own.
const sgemmGrain = 1 << 18

// sgemmBuffers are one goroutine's packed panels and scratch tile, kept
// in sgemmPool between calls so that a call in the steady state
// allocates none.
type sgemmBuffers struct {
	a, b []float32
	tile [sgemmMR * sgemmNR]float32
}

var sgemmPool = sync.Pool{New: func() any { return new(sgemmBuffers) }}

// sgemmTeamRows is the fewest rows of C a goroutine of a team is given.
const sgemmTeamRows = 4 * sgemmMR

// run computes C = alpha*op(A)*op(B) + beta*C for alpha and k not 0 on
// the goroutines the product is large enough for: as a team sharing
// packed B (sgemmTeam) where C has rows enough for each goroutine to
// take a block of them, else splitting the larger of C's dimensions, in
// whole tiles, each goroutine packing its own.
func (g gemm) run() {
	work := float64(g.m) * float64(g.n) * float64(g.k)
	parts := min(runtime.GOMAXPROCS(0), int(min(work/sgemmGrain, 1<<20)))
	if parts > 1 && g.m >= parts*sgemmTeamRows {
		g.team(parts)
		return
	}
	size, step := g.n, sgemmNR
	if g.m > g.n {
		size, step = g.m, sgemmMR
	}
	tiles := (size + step - 1) / step
	if parts = min(parts, tiles); parts <= 1 {
		g.block(0, g.m, 0, g.n)
		return
	}
	g.split(parts, tiles, step)
}

// split runs the product in parts ranges of C's larger dimension, tiles
// tiles of step elements in all, the first on the caller's goroutine; a
// method of its own so that the one-goroutine path allocates nothing.
// It allocates its state once and a start for each goroutine.
func (g gemm) split(parts, tiles, step int) {
	s := &gemmSplit{g: g, parts: parts, tiles: tiles, step: step}
	s.wg.Add(parts - 1)
	for p := 1; p < parts; p++ {
		go s.part(p)
	}
	s.part(0)
	s.wg.Wait()
}

// gemmSplit is a product split in ranges of C's larger dimension.
type gemmSplit struct {
	g                  gemm
	parts, tiles, step int
	wg                 sync.WaitGroup // the goroutines other than the caller's
}

// part computes the pth range, and is done with it in s.wg unless it is
// the caller's.
func (s *gemmSplit) part(p int) {
	g := s.g
	at := func(p int) int { return min(s.tiles*p/s.parts*s.step, max(g.m, g.n)) }
	if lo, hi := at(p), at(p+1); g.m > g.n {
		g.block(lo, hi, 0, g.n)
	} else {
		g.block(0, g.m, lo, hi)
	}
	if p > 0 {
		s.wg.Done()
	}
}

// block computes rows i0 to i1 and columns j0 to j1 of C with one
// goroutine's buffers.
func (g gemm) block(i0, i1, j0, j1 int) {
	buf := sgemmPool.Get().(*sgemmBuffers)
	defer sgemmPool.Put(buf)
	kc := min(sgemmKC, g.k)
	buf.a = grow(buf.a, min(sgemmMC, roundUp(i1-i0, sgemmMR))*kc)
	buf.b = grow(buf.b, min(sgemmNC, roundUp(j1-j0, sgemmNR))*kc)
	for jc := j0; jc < j1; jc += sgemmNC {
		nc := min(sgemmNC, j1-jc)
		for pc := 0; pc < g.k; pc += sgemmKC {
			kc := min(sgemmKC, g.k-pc)
			beta := g.beta
			if pc > 0 {
				beta = 1 // the blocks of k before are in C
			}
			g.packB(buf.b, pc, kc, jc, nc)
			for ic := i0; ic < i1; ic += sgemmMC {
				mc := min(sgemmMC, i1-ic)
				g.packA(buf.a, ic, mc, pc, kc)
				g.tiles(buf, buf.b, ic, mc, jc, nc, kc, beta)
			}
		}
	}
}

func roundUp(n, step int) int { return (n + step - 1) / step * step }

// grow returns s if it holds n elements, else a slice that does.
func grow(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float32, n)
}

// tiles runs the micro-kernel over the mc x nc block of C at row ic,
// column jc, from the packed panels of depth kc, A's in buf and B's in
// pb, adding beta*C.
func (g gemm) tiles(buf *sgemmBuffers, pb []float32, ic, mc, jc, nc, kc int, beta float32) {
	const mr, nr = sgemmMR, sgemmNR
	for jr := 0; jr < nc; jr += nr {
		cols := min(nr, nc-jr)
		bp := pb[jr*kc : (jr+nr)*kc]
		for ir := 0; ir < mc; ir += mr {
			rows := min(mr, mc-ir)
			ap := buf.a[ir*kc : (ir+mr)*kc]
			off := (ic+ir)*g.ldc + jc + jr
			if rows == mr && cols == nr {
				sgemmTile(kc, ap, bp, g.c[off:off+(mr-1)*g.ldc+nr], g.ldc, g.alpha, beta)
				continue
			}
			t := buf.tile[:]
			sgemmTile(kc, ap, bp, t, nr, g.alpha, 0)
			for i := range rows {
				row, tr := g.c[off+i*g.ldc:][:cols], t[i*nr:][:cols]
				if beta == 0 {
					copy(row, tr)
					continue
				}
				for j := range row {
					row[j] = tr[j] + beta*row[j]
				}
			}
		}
	}
}

// packA copies rows ic to ic+mc and columns pc to pc+kc of op(A) into
// dst as panels of MR rows, each k-major (element p*MR+i is row i,
// column p of the panel), rows past mc zero.
func (g gemm) packA(dst []float32, ic, mc, pc, kc int) {
	const mr = sgemmMR
	for q := 0; q < mc; q += mr {
		rows := min(mr, mc-q)
		panel := dst[q*kc : (q+mr)*kc]
		if g.transA { // op(A)[i][p] = a[p*lda+i]: a panel's column is a stored row
			for p := range kc {
				d := panel[p*mr : p*mr+mr]
				if rows == mr {
					*(*[mr]float32)(d) = *(*[mr]float32)(g.a[(pc+p)*g.lda+ic+q:])
					continue
				}
				copy(d, g.a[(pc+p)*g.lda+ic+q:][:rows])
				clear(d[rows:])
			}
			continue
		}
		if rows == mr {
			r0 := g.a[(ic+q)*g.lda+pc:][:kc]
			r1 := g.a[(ic+q+1)*g.lda+pc:][:kc]
			r2 := g.a[(ic+q+2)*g.lda+pc:][:kc]
			r3 := g.a[(ic+q+3)*g.lda+pc:][:kc]
			r4 := g.a[(ic+q+4)*g.lda+pc:][:kc]
			r5 := g.a[(ic+q+5)*g.lda+pc:][:kc]
			for p := range r0 {
				d := (*[mr]float32)(panel[p*mr:])
				d[0], d[1], d[2], d[3], d[4], d[5] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p]
			}
			continue
		}
		clear(panel)
		for i := range rows {
			for p, v := range g.a[(ic+q+i)*g.lda+pc:][:kc] {
				panel[p*mr+i] = v
			}
		}
	}
}

// packB copies rows pc to pc+kc and columns jc to jc+nc of op(B) into
// dst as panels of NR columns, each k-major (element p*NR+j is row p,
// column j of the panel), columns past nc zero. A stored row is read
// whole, in order, and dealt out to the panels: read panel by panel,
// B's rows a leading dimension apart would each be a cache miss.
func (g gemm) packB(dst []float32, pc, kc, jc, nc int) {
	const nr = sgemmNR
	full := nc / nr * nr
	if !g.transB {
		for p := range kc {
			src := g.b[(pc+p)*g.ldb+jc:][:nc]
			for q := 0; q < full; q += nr {
				*(*[nr]float32)(dst[q*kc+p*nr:]) = *(*[nr]float32)(src[q:])
			}
			if full < nc {
				d := dst[full*kc+p*nr:][:nr]
				copy(d, src[full:])
				clear(d[nc-full:])
			}
		}
		return
	}
	// op(B)[p][j] = b[j*ldb+p]: a panel's row is a stored column.
	for q := 0; q < nc; q += nr {
		cols := min(nr, nc-q)
		panel := dst[q*kc : (q+nr)*kc]
		if cols < nr {
			clear(panel)
		}
		for j := range cols {
			for p, v := range g.b[(jc+q+j)*g.ldb+pc:][:kc] {
				panel[p*nr+j] = v
			}
		}
	}
}
