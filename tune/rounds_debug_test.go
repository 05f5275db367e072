package tune_test

import (
	"testing"
	"time"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/tune"
)

func TestRoundsDebug(t *testing.T) {
	d, err := gpu.OpenBackend("cpu")
	if err != nil { t.Fatal(err) }
	for _, p := range []matmul.Shape{{512,512,512}} {
	for rep := 0; rep < 2; rep++ {
		c, err := tune.Sweep(&tune.Tuner{Bracket: 100*time.Millisecond}, d.Stream(), matmul.Family, p)
		if err != nil { t.Fatal(err) }
		line := ""
		for _, tm := range c.Timings[3:] { line += tune.Short(tm.Member) + " " ; for _, r := range tm.Rounds { line += r.Round(time.Microsecond).String()+" " }; line += "| " }
		t.Log(line)
	}
	}
}
