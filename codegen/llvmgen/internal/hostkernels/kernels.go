package hostkernels

import "github.com/goxpu/xpu"

// Saxpy is contiguous loads and stores under a bounds guard.
//
//xpu:kernel block=256
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

// Branches is a varying if/else chain with short-circuit conditions.
//
//xpu:kernel block=64
func Branches(t xpu.Thread, out []float32, in []float32, flags []int32, n uint32) {
	i := t.GlobalX()
	if i < n && (n > 7 && in[i] > 0) {
		out[i] = in[i] * 2
	} else if i < n && (flags[i] == 1 || in[i] < -0.5) {
		out[i] = -in[i]
	} else if i < n {
		out[i] = 7
	}
}

// Loops runs a varying loop with break, continue and an early return.
//
//xpu:kernel block=64
func Loops(t xpu.Thread, out []uint32, in []uint32, limit, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	v := in[i]
	var steps, odd uint32
	for v != 1 {
		if steps >= limit {
			break
		}
		steps++
		if v%2 == 0 {
			v /= 2
			continue
		}
		odd++
		v = 3*v + 1
		if odd > 40 {
			out[i] = 1000000 + steps
			return
		}
	}
	out[i] = steps*100 + odd
}

// MatVec is a uniform inner loop with contiguous and gathered loads.
//
//xpu:kernel block=32
func MatVec(t xpu.Thread, y, a, x []float32, cols, rows uint32) {
	r := t.GlobalX()
	if r >= rows {
		return
	}
	var s float32
	for k := uint32(0); k < cols; k++ {
		s += a[r*cols+k] * x[k]
	}
	y[r] = s
}

// Permute gathers and scatters through index buffers.
//
//xpu:kernel block=64
func Permute(t xpu.Thread, out []int32, in []int32, src, dst []uint32, n uint32) {
	if i := t.GlobalX(); i < n {
		out[dst[i]] = in[src[i]] + int32(i)
	}
}

// Particle is a struct buffer element.
type Particle struct {
	X, Y, VX, VY float32
	Hits         uint32
}

// Step moves particles: struct elements read whole and field by field.
//
//xpu:kernel block=64
func Step(t xpu.Thread, ps []Particle, dt float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	p := ps[i]
	p.X += p.VX * dt
	p.Y += p.VY * dt
	if p.X < 0 || p.X > 1 {
		p.VX = -p.VX
		p.Hits++
	}
	ps[i] = p
	ps[i].Y = xpu.Clamp(ps[i].Y, 0, 1)
}

// Private sorts eight values per work-item in a private array.
//
//xpu:kernel block=64
func Private(t xpu.Thread, out, in []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var a [8]float32
	for k := uint32(0); k < 8; k++ {
		a[k] = in[(i*8+k)%n]
	}
	for k := uint32(1); k < 8; k++ {
		j := k
		for j > 0 && a[j-1] > a[j] {
			a[j-1], a[j] = a[j], a[j-1]
			j--
		}
	}
	var neg [8]bool
	for k := uint32(0); k < 8; k++ {
		neg[k] = a[k] < 0
	}
	c := float32(0)
	if neg[i%8] || neg[uint32(xpu.Abs(in[i])*7)%8] {
		c = 100
	}
	out[i] = a[i%8] + a[uint32(xpu.Abs(in[i])*7)%8] + c
}

// SharedTickets takes a ticket from a shared counter per work-item (in
// work-item order) and stages values in a shared array.
//
//xpu:kernel block=100
func SharedTickets(t xpu.Thread, out []uint32, stage []float32, in []float32) {
	c := xpu.Shared[uint32](t, 1)
	s := xpu.Shared[float32](t, 100)
	l := t.LocalX()
	g := t.GlobalX()
	s[l] = in[g] * 3
	out[g] = xpu.AtomicAdd(&c[0], 1)*1000 + l
	stage[g] = s[l] + 1
}

// Atomics exercises buffer atomics of every kind.
//
//xpu:kernel block=64
func Atomics(t xpu.Thread, bins []uint32, sums []float32, mm []int32, slots []int32, won []uint32, in []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	v := in[i]
	xpu.AtomicAdd(&bins[uint32(v)%16], 1)
	xpu.AtomicAddFloat32(&sums[i%4], float32(v)*0.25)
	xpu.AtomicMax(&mm[0], v)
	xpu.AtomicMin(&mm[1], v)
	xpu.AtomicXor(&mm[2], v)
	if xpu.AtomicCompareExchange(&slots[uint32(v)%32], 0, int32(i)+1) == 0 {
		won[i] = 1
	} else {
		won[i] = 2
	}
}

// Grid3 uses every coordinate of a 3D block in a 2D grid.
//
//xpu:kernel block=4,4,4
func Grid3(t xpu.Thread, out []uint32, w uint32) {
	x, y, z := t.GlobalX(), t.GlobalY(), t.GlobalZ()
	i := (z*t.NumGroupsY()*4+y)*w + x
	out[i] = t.LocalIndex() + 1000*t.GroupX() + 100000*t.GroupY() + (t.LocalZ() << 20)
}

// Grid2 is a 2D block whose rows are not a multiple of the lanes.
//
//xpu:kernel block=12,5
func Grid2(t xpu.Thread, out []float32, in []float32, w, h uint32) {
	x, y := t.GlobalX(), t.GlobalY()
	if x < w && y < h {
		out[y*w+x] = in[y*w+x] + float32(t.LocalY()) - float32(t.LocalX())
	}
}

// poly is a device function with a varying early return.
func poly(x float32, k uint32) float32 {
	if x < 0 {
		return -x
	}
	r := float32(1)
	for j := uint32(0); j < k; j++ {
		r = r*x + 1
	}
	return r
}

// scale is a device function called with uniform arguments.
func scale(a float32, k uint32) float32 { return a * float32(k+1) }

// Funcs calls device functions with varying and uniform arguments.
//
//xpu:kernel block=64
func Funcs(t xpu.Thread, out, in []float32, a float32, k, n uint32) {
	if i := t.GlobalX(); i < n {
		out[i] = poly(in[i], k) + scale(a, k)
	}
}

// strideSum sums the columns of in's row at base (cols wide) that
// work-item l of a block of 8 visits: a loop whose counter is uniform in
// a function called with a varying argument, then a divergent return.
func strideSum(in []float32, base, cols, l uint32) float32 {
	var s float32
	for j0 := uint32(0); j0 < cols; j0 += 8 {
		if j := j0 + l; j < cols {
			s += in[base+j]
		}
	}
	if l == 7 && cols%2 == 1 {
		return -s
	}
	return s
}

// HelperLoop calls strideSum with a varying argument in uniform control
// flow, a row a block.
//
//xpu:kernel block=8
func HelperLoop(t xpu.Thread, out, in []float32, cols uint32) {
	out[t.GlobalX()] = strideSum(in, t.GroupX()*cols, cols, t.LocalX())
}

// IntOps checks Go's integer semantics: division and remainder of
// signed values (MinInt32 / -1 included), shifts by any count.
//
//xpu:kernel block=64
func IntOps(t xpu.Thread, out []int32, uout []uint32, a, b []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	ux, uy := uint32(x), uint32(y)
	s := uint32(y) % 40
	r := int32(0)
	if y != 0 {
		r = x/y + x%y*7
	}
	var q uint32
	if uy != 0 {
		q = ux/uy ^ ux%uy
	}
	out[i] = r ^ x>>s ^ x<<s ^ (x &^ y) ^ -x
	uout[i] = q + ux>>s + ux<<(s/2) ^ ^ux
}

// FloatOps checks the math functions against their Go definitions (Exp
// and Tanh, which the host computes in float32 within a bound of their
// own, by ExpTanh).
//
//xpu:kernel block=64
func FloatOps(t xpu.Thread, out []float32, ints []int32, a, b []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	o := i * 12
	out[o+0] = xpu.Min(x, y)
	out[o+1] = xpu.Max(x, y)
	out[o+2] = xpu.Abs(x)
	out[o+3] = xpu.Round(x*10) + xpu.Floor(y*3) + xpu.Ceil(x*7) + xpu.Trunc(y*5)
	out[o+4] = xpu.Sqrt(xpu.Abs(x)) / y
	out[o+5] = xpu.Fma(x, y, 0.5)
	out[o+6] = xpu.Exp2(y)
	out[o+7] = xpu.Log(xpu.Abs(x)) + xpu.Log2(xpu.Abs(y))
	out[o+8] = xpu.Sin(x*3) * xpu.Cos(y*3)
	out[o+9] = xpu.Tan(x)
	out[o+10] = xpu.Pow(xpu.Abs(x), y)
	out[o+11] = xpu.Clamp(x*y, -0.25, 0.25)
	// Conversions of values in range only: out of range, Go's result
	// is the machine's.
	cx, cy := xpu.Clamp(x, -2, 2), xpu.Clamp(y, -2, 2)
	if x != x || y != y {
		cx, cy = 0.25, -0.75
	}
	ints[i*3] = int32(cx * 1e9)
	ints[i*3+1] = xpu.Min(int32(cx*100), int32(cy*100)) + xpu.Abs(int32(cy*1000))
	ints[i*3+2] = int32(xpu.Float32Bits(x)>>3) + int32(uint32(cy*cy*1e9))
}

// Fault reads at an offset that may leave the buffer, divides by a
// value that may be zero and shifts by a count that may be negative.
//
//xpu:kernel block=64
func Fault(t xpu.Thread, out []int32, in []int32, off int32, d int32, s int32, n uint32) {
	i := int32(t.GlobalX())
	if uint32(i) >= n {
		return
	}
	out[i] = in[i+off] / (d + i%3) << (s + i%2)
}

// FaultPrivate indexes a private array with a value that may be out of
// range.
//
//xpu:kernel block=64
func FaultPrivate(t xpu.Thread, out []uint32, k uint32) {
	var a [4]uint32
	l := t.LocalX()
	a[l%4] = l
	out[t.GlobalX()] = a[(l+k)%8]
}

// FaultShared indexes a shared array with a value that may be out of
// range.
//
//xpu:kernel block=64
func FaultShared(t xpu.Thread, out []uint32, k uint32) {
	s := xpu.Shared[uint32](t, 64)
	l := t.LocalX()
	s[(l+k)%96] = l
	out[t.GlobalX()] = 1
}

// FaultStrided reads a buffer and writes a shared array at indices a
// constant step apart across the work-items, which may leave them.
//
//xpu:kernel block=64
func FaultStrided(t xpu.Thread, out []uint32, in []uint32, k, j uint32) {
	s := xpu.Shared[uint32](t, 64*4)
	l, g := t.LocalX(), t.GlobalX()
	out[g] = in[g*3+k]
	s[l*4+j] = l
}

// Spin loops for as long as it is told: the stop word ends it.
//
//xpu:kernel block=64
func Spin(t xpu.Thread, out []uint32, rounds uint32) {
	var s uint32
	for r := uint32(0); r < rounds; r++ {
		s = s*1664525 + 1013904223
	}
	out[t.GlobalX()] = s
}

// Barrier needs a barrier between its shared store and load.
//
//xpu:kernel block=64
func Barrier(t xpu.Thread, out []uint32) {
	s := xpu.Shared[uint32](t, 64)
	l := t.LocalX()
	s[l] = l * 3
	t.Barrier()
	out[t.GlobalX()] = s[63-l]
}

// Waves calls every wave verb in a block whose last wave is partial.
//
//xpu:kernel block=60
func Waves(t xpu.Thread, ints []int32, floats []float32, in []int32, fin []float32, k uint32) {
	g := t.GlobalX()
	v, f := in[g], fin[g]
	o := g * 14
	s := xpu.WaveSum(t, v)
	fs := xpu.WaveSum(t, f)
	mn := xpu.WaveMin(t, f)
	mx := xpu.WaveMax(t, v)
	ps := xpu.WavePrefixSum(t, f)
	es := xpu.WaveExclusivePrefixSum(t, v)
	bl := xpu.WaveBallot(t, v > 0)
	an := xpu.WaveAny(t, v > 900)
	al := xpu.WaveAll(t, v > -900)
	bc := xpu.WaveBroadcast(t, f, k)
	sh := xpu.WaveShuffle(t, v, uint32(v))
	sx := xpu.WaveShuffleXor(t, f, k+1)
	su := xpu.WaveShuffleUp(t, v, k)
	sd := xpu.WaveShuffleDown(t, f, k)
	ints[o] = s
	ints[o+1] = mx
	ints[o+2] = es
	ints[o+3] = int32(bl)
	ints[o+4] = 0
	if an {
		ints[o+4] = 1
	}
	if al {
		ints[o+4] += 2
	}
	ints[o+5] = sh
	ints[o+6] = su
	ints[o+7] = int32(t.WaveWidth()*100 + t.LaneIndex())
	floats[o] = fs
	floats[o+1] = mn
	floats[o+2] = ps
	floats[o+3] = bc
	floats[o+4] = sx
	floats[o+5] = sd
}

// syncAll reaches a barrier from a device function.
func syncAll(t xpu.Thread) { t.Barrier() }

// BarrierInFunc calls a device function that reaches a barrier.
//
//xpu:kernel block=64
func BarrierInFunc(t xpu.Thread, out []uint32) {
	out[t.GlobalX()] = 1
	syncAll(t)
}

// Reduce sums each block's values by a tree in shared memory: barriers
// in a uniform loop.
//
//xpu:kernel block=128
func Reduce(t xpu.Thread, out []float32, in []float32, n uint32) {
	s := xpu.Shared[float32](t, 128)
	l := t.LocalX()
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	s[l] = v
	t.Barrier()
	for step := uint32(64); step > 0; step /= 2 {
		if l < step {
			s[l] += s[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		out[t.GroupX()] = s[0]
	}
}

// Stencil keeps a private array and varying values across barriers, has
// barriers under a uniform if and returns early after the last one.
//
//xpu:kernel block=8,6
func Stencil(t xpu.Thread, out []uint32, in []uint32, w uint32, twice uint32) {
	s := xpu.Shared[uint32](t, 48)
	lx, ly := t.LocalX(), t.LocalY()
	l := ly*8 + lx
	g := t.GlobalY()*w + t.GlobalX()
	var keep [3]uint32
	keep[l%3] = in[g]
	s[l] = in[g]
	t.Barrier()
	acc := s[(l+1)%48] + s[(l+47)%48]
	if twice > 0 {
		t.Barrier()
		s[l] = acc
		t.Barrier()
		acc += s[(l+8)%48]
	}
	if lx == 7 {
		return
	}
	out[g] = acc*3 + keep[l%3]
}

// Gemm computes c = a*b for n x n row-major matrices (n a multiple of
// 64) in 64x64 tiles: shared tiles between barriers, a private 4x4
// micro-tile per work-item.
//
//xpu:kernel block=16,16
func Gemm(t xpu.Thread, c, a, b []float32, n uint32) {
	as := xpu.Shared[float32](t, 64*16)
	bs := xpu.Shared[float32](t, 16*64)
	tx, ty := t.LocalX(), t.LocalY()
	row0, col0 := t.GroupY()*64, t.GroupX()*64
	var acc [16]float32
	for k0 := uint32(0); k0 < n; k0 += 16 {
		for i := uint32(0); i < 4; i++ {
			as[(ty+16*i)*16+tx] = a[(row0+ty+16*i)*n+k0+tx]
			bs[ty*64+tx+16*i] = b[(k0+ty)*n+col0+tx+16*i]
		}
		t.Barrier()
		for k := uint32(0); k < 16; k++ {
			for i := uint32(0); i < 4; i++ {
				for j := uint32(0); j < 4; j++ {
					acc[i*4+j] += as[(ty+16*i)*16+k] * bs[k*64+tx+16*j]
				}
			}
		}
		t.Barrier()
	}
	for i := uint32(0); i < 4; i++ {
		for j := uint32(0); j < 4; j++ {
			c[(row0+ty+16*i)*n+col0+tx+16*j] = acc[i*4+j]
		}
	}
}

// WaveAt is the configuration of a WavesAt member: its declared wave
// width and its block, no multiple of the width.
type WaveAt struct{ W, Block uint32 }

// WavesAt calls wave verbs at a declared width, narrower and wider than
// the host's vectors, in blocks whose last wave is partial.
//
//xpu:kernel block=c.Block wave=c.W
//xpu:instance WavesAt4 WaveAt{W: 4, Block: 30}
//xpu:instance WavesAt16 WaveAt{W: 16, Block: 40}
//xpu:instance WavesAt32 WaveAt{W: 32, Block: 80}
func WavesAt(t xpu.Thread, c WaveAt, out []int32, in []int32, fin []float32, k uint32) {
	g := t.GlobalX()
	v, f := in[g], fin[g]
	o := g * 9
	s := xpu.WaveSum(t, v)
	ps := xpu.WavePrefixSum(t, v)
	mn := xpu.WaveMin(t, f)
	bl := xpu.WaveBallot(t, v > 0)
	an := xpu.WaveAny(t, v > 500)
	sx := xpu.WaveShuffleXor(t, v, k)
	sd := xpu.WaveShuffleDown(t, v, k)
	sh := xpu.WaveShuffle(t, f, uint32(v))
	out[o] = s
	out[o+1] = ps
	out[o+2] = int32(xpu.Float32Bits(mn))
	out[o+3] = int32(bl)
	out[o+4] = 0
	if an {
		out[o+4] = 1
	}
	out[o+5] = sx
	out[o+6] = sd
	out[o+7] = int32(t.WaveWidth()*100 + t.LaneIndex())
	out[o+8] = int32(xpu.Float32Bits(sh))
}

// Pair is a private array's element.
type Pair struct{ A, B uint32 }

// Rows keeps a private array of structs and one of arrays, indexed by
// uniform and by varying values.
//
//xpu:kernel block=64
func Rows(t xpu.Thread, out []uint32, in []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var ps [4]Pair
	var m [3][4]uint32
	for k := uint32(0); k < 4; k++ {
		ps[k] = Pair{A: in[(i+k)%n], B: k}
		m[k%3][k] = in[(i*3+k)%n]
		m[in[i]%3][k] += k
	}
	ps[in[i]%4].B += 7
	row := m[1]
	row[i%4] ^= 0xff
	q := ps[i%4]
	out[i] = q.A + q.B*3 + row[0] + row[i%4] + m[i%3][in[(i+1)%n]%4] + ps[2].B
}

// Strided reads and writes elements a constant step apart across the
// work-items: buffers and a shared array at steps 2 to 4 and past
// maxInterleave, with guards that leave lanes off at the buffers' ends
// and indices both uint32 and int32.
//
//xpu:kernel block=64
func Strided(t xpu.Thread, out []float32, iout []int32, in []float32, n uint32) {
	sh := xpu.Shared[float32](t, 64*4)
	i, g := t.LocalX(), t.GlobalX()
	for l := uint32(0); l < 4; l++ {
		v := float32(l)
		if g*3+l < n {
			v = in[g*3+l] // step 3, to the end of in
		}
		sh[i*4+l] = v // step 4, to the end of sh
	}
	t.Barrier()
	s := sh[i<<2] + 2*sh[(i<<2)+3] - sh[i*3-i+1] + sh[i*2+i]/4 // steps 4, 4 (at the end), 2, 3
	if i < 16 {
		s += sh[i*16+9] // step 16: wider than one wide access
	}
	if g*2+1 < uint32(len(out)) {
		out[g*2+1] = s // step 2, lanes off at the end
	}
	if g*2 < uint32(len(out)) {
		out[g*2] = s * 3
	}
	j := int32(g)*3 - 2
	if j >= 0 && j < int32(len(iout)) {
		iout[j] = int32(i) // step 3, int32 index, lanes off at both ends
	}
}

// ExpTanh applies Exp and Tanh, for the sweeps of the host's float32
// exp and tanh.
//
//xpu:kernel block=64
func ExpTanh(t xpu.Thread, exp, tanh, x []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	exp[i] = xpu.Exp(x[i])
	tanh[i] = xpu.Tanh(x[i])
}
