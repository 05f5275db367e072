package simd

// sgemmTileGo is the pure-Go micro-kernel: it sets the MR x NR tile c,
// rows ldc apart, to alpha times the product of the packed panels a (kc
// columns of MR) and b (kc rows of NR), plus beta*c, not reading c when
// beta is 0. Each product is summed in float32 in order of p.
func sgemmTileGo(kc int, a, b, c []float32, ldc int, alpha, beta float32) {
	const mr, nr = sgemmMR, sgemmNR
	var acc [mr][nr]float32
	a, b = a[:kc*mr], b[:kc*nr]
	for p := range kc {
		ap := (*[mr]float32)(a[p*mr:])
		bp := (*[nr]float32)(b[p*nr:])
		for i, ai := range ap {
			row := &acc[i]
			for j, bj := range bp {
				row[j] += ai * bj
			}
		}
	}
	for i := range acc {
		row := (*[nr]float32)(c[i*ldc:])
		for j, v := range acc[i] {
			if beta == 0 {
				row[j] = alpha * v
			} else {
				row[j] = alpha*v + beta*row[j]
			}
		}
	}
}
