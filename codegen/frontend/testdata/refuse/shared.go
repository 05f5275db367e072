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
		/* ERROR "[xpu-barrier-nonuniform] barrier in non-uniform control flow: the if condition at shared.go:22:2 depends on the work-item" */ t.Barrier()
	}
	if n > 4 {
		t.Barrier() // uniform: fine
	}
	for j := t.LocalX(); j < n; j += 64 {
		/* ERROR "[xpu-barrier-nonuniform] call of sync, which reaches a barrier, in non-uniform control flow: the loop condition at shared.go:28:2 depends" */ sync(t)
	}
	t.Barrier() // the work-items reconverge after the loop
	syncIf(t, n)
	/* ERROR "[xpu-barrier-nonuniform] call of syncIf, which reaches a barrier, in non-uniform control flow: its arguments depend on the work-item" */ syncIf(t, i)
	if y[0] > 0 {
		return
	}
	t.Barrier() // ERROR "[xpu-barrier-nonuniform] barrier in non-uniform control flow: the return at shared.go:35:3 is under a condition that depends on the work-item"
}

//xpu:kernel block=64
func Causes(t xpu.Thread, y []float32, n uint32) {
	for j := uint32(0); j < n; j++ {
		t.Barrier() // ERROR "[xpu-barrier-nonuniform] barrier in non-uniform control flow: the break at shared.go:45:4 is under a condition"
		if y[j] > 0 {
			break
		}
	}
	for j := uint32(0); j < n; j++ {
		if y[j] > 0 {
			continue
		}
		t.Barrier() // ERROR "[xpu-barrier-nonuniform] barrier in non-uniform control flow: the continue at shared.go:50:4 is under a condition"
	}
	i := t.GlobalX()
	for j := uint32(0); j < i; j++ {
		if j > 4 {
			return
		}
	}
	t.Barrier() // ERROR "[xpu-barrier-nonuniform] barrier in non-uniform control flow: the return at shared.go:57:4 is under a condition"
}
