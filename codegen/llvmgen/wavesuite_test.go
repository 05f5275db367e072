package llvmgen

import (
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/kernels/wave"
)

// TestWaveSuiteVerbs runs the wave suite's Verbs members (declared
// widths 4 to 64, each block with a partial last wave) through the host
// contract against the reference, on every target this machine runs.
func TestWaveSuiteVerbs(t *testing.T) {
	m, err := frontend.Load("../../kernels/wave", frontend.Generated{Files: emit.GeneratedFiles, Declares: emit.Declares})
	if err != nil {
		t.Fatal(err)
	}
	members := map[string]wave.Width{
		"Wave4": {W: 4, Block: 30}, "Wave8": {W: 8, Block: 60}, "Wave16": {W: 16, Block: 40},
		"Wave32": {W: 32, Block: 80}, "Wave64": {W: 64, Block: 96},
	}
	for _, tgt := range runnable() {
		for _, k := range m.Kernels {
			c, ok := members[k.Name]
			if !ok {
				continue
			}
			t.Run(tgt.ISA+"/"+k.Name, func(t *testing.T) {
				if c.W != k.Wave || c.Block != k.Block[0] {
					t.Fatalf("member %s is wave=%d block=%d, the test thinks %+v", k.Name, k.Wave, k.Block[0], c)
				}
				e := load(t, k, tgt)
				const groups = 5
				n := int(c.Block) * groups
				r := rand.New(rand.NewPCG(uint64(c.W), 2))
				xi, xu, xf, sel := make([]int32, n), make([]uint32, n), make([]float32, n), make([]uint32, n)
				for i := range n {
					xi[i] = r.Int32N(2001) - 1000
					xu[i] = r.Uint32N(1 << 20)
					xf[i] = r.Float32()*2 - 1
					sel[i] = r.Uint32N(2 * c.W)
				}
				args := []any{poisonI32(n * 10), poisonU32(n * 11), poisonF32(n * 6), xi, xu, xf, sel,
					r.Uint32N(c.W), r.Uint32N(c.W), r.Uint32N(c.W)}
				want, got := clone(args), clone(args)
				cfg := xpu.Config{Groups: xpu.Dim3{X: groups}, Block: xpu.Dim3{X: c.Block}, WaveWidth: Wave(k, tgt)}
				if err := xpu.Run(cfg, wave.Verbs, append([]any{c}, want...)...); err != nil {
					t.Fatal(err)
				}
				var stop uint32
				if res := firstFault(e.run([3]uint32{groups, 1, 1}, got, 2, &stop)); res.code != 0 {
					t.Fatalf("code %d, fault %+v", res.code, res.fault)
				}
				for i := range 3 {
					// Sums and scans of float32s run in lane order, as the
					// reference's: exact.
					if d := diff(want[i], got[i], tolerance{}); d != "" {
						t.Errorf("%s:\n%s", k.Params[i].Name, d)
					}
				}
			})
		}
	}
}
