package simd

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMatVec times the mat-vecs on a 4096x4096 matrix per path and,
// in the same run, a plain copy of the matrix's bytes: both report the
// GB/s of w read, so their ratio says how near memory speed the mat-vec
// runs. The copy is one goroutine; the mat-vec is GOMAXPROCS of them.
func BenchmarkMatVec(b *testing.B) {
	const rows, cols = 4096, 4096
	r := rand.New(rand.NewPCG(9, 10))
	x := floats(r, cols)
	y := make([]float32, rows)
	for _, f := range formats {
		w := f.blocks(r, rows*cols/BlockValues, modest)
		b.Run(f.name+"/copy", func(b *testing.B) {
			dst := make([]byte, len(w))
			for b.Loop() {
				copy(dst, w)
			}
			reportGBs(b, len(w))
		})
		for _, name := range pathNames() {
			b.Run(f.name+"/"+name, func(b *testing.B) {
				defer usePath(name)()
				for b.Loop() {
					if err := f.matVec(y, w, x, rows, cols); err != nil {
						b.Fatal(err)
					}
				}
				reportGBs(b, len(w))
			})
		}
	}
}

// reportGBs reports the GB/s of n bytes read per iteration.
func reportGBs(b *testing.B, n int) {
	b.SetBytes(int64(n))
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// BenchmarkDot times one 4096-value dot product per path, its blocks and
// floats in L1: the kernels' arithmetic, apart from memory.
func BenchmarkDot(b *testing.B) {
	const n = 4096
	r := rand.New(rand.NewPCG(11, 12))
	x := floats(r, n)
	for _, f := range formats {
		blocks := f.blocks(r, n/BlockValues, modest)
		for _, name := range pathNames() {
			b.Run(f.name+"/"+name, func(b *testing.B) {
				defer usePath(name)()
				var sink float32
				for b.Loop() {
					sink += f.dot(blocks, x)
				}
				reportGBs(b, len(blocks))
				_ = sink
			})
		}
	}
}
