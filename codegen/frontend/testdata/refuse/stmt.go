package refuse

import "github.com/goxpu/xpu"

func work(y []float32) { y[0] = 1 }

//xpu:kernel block=64
func Stmts(t xpu.Thread, y []float32, n uint32) {
	/* ERROR "[xpu-no-goroutine]" */ go work(y)
	/* ERROR "[xpu-no-defer]" */ defer work(y)
	/* ERROR "[xpu-no-goto] label" */ L:
	for i := range n {
		if i > 2 {
			/* ERROR "[xpu-no-goto] labeled break" */ break L
		}
	}
	/* ERROR "[xpu-no-goto] goto" */ goto End
End: // ERROR "[xpu-no-goto] label End"
	switch n {
	case 1:
		/* ERROR "[xpu-no-fallthrough]" */ fallthrough
	case 2:
		if y[0] > 0 {
			/* ERROR "[xpu-switch-break]" */ break
		}
		y[0] = 2
	}
	if n == 7 {
		/* ERROR "[xpu-no-panic]" */ panic("n")
	}
	f := /* ERROR "[xpu-no-closure] function literal" */ func() {}
	_ = f
	/* ERROR "[xpu-no-goto]" */ L2:
	for {
		break
	}
	goto L2 // ERROR "[xpu-no-goto]"
}
