package refuse

import "github.com/goxpu/xpu"

func sync(t xpu.Thread) { t.Barrier() }

func syncIf(t xpu.Thread, c uint32) {
	if c > 0 {
		t.Barrier()
	}
}

//xpu:kernel block=64
func Shared(t xpu.Thread, y []float32, n uint32) {
	s := xpu.Shared[float32](t, int(n)) // ERROR "[xpu-shared-size]"
	_ = s
	if n > 0 {
		u := /* ERROR "[xpu-shared-placement]" */ xpu.Shared[float32](t, 4)
		_ = u
	}
	i := t.GlobalX()
	if i < n {
		/* ERROR "[xpu-barrier-nonuniform] barrier in non-uniform control flow" */ t.Barrier()
	}
	if n > 4 {
		t.Barrier() // uniform: fine
	}
	for j := t.LocalX(); j < n; j += 64 {
		/* ERROR "[xpu-barrier-nonuniform] call of sync" */ sync(t)
	}
	t.Barrier() // the work-items reconverge after the loop
	syncIf(t, n)
	/* ERROR "[xpu-barrier-nonuniform] call of syncIf" */ syncIf(t, i)
	if y[0] > 0 {
		return
	}
	t.Barrier() // ERROR "[xpu-barrier-nonuniform]"
}
