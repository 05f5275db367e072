package matmul_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/kernels/matmul/matmultest"
)

// TestMain runs the tests, then the kernel census of the package: a
// member a tuner may choose must compute what its reference does on every
// backend it runs on.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, pkg, nil))
}

// pkg is the import path of the package, which prefixes its kernels' names.
const pkg = "github.com/goxpu/xpu/kernels/matmul"

// TestKernels checks every member of Tiled on every device present
// against the reference runner, at every shape of matmultest.Cases,
// computing the plain product, and in every layout; under the race
// detector at matmultest.RaceCases.
func TestKernels(t *testing.T) {
	cases := matmultest.Cases(smallShapes())
	if underRace {
		cases = matmultest.RaceCases()
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, cases) })
}

// TestMembers checks that every member is launchable and that its block
// is the micro-tiling of its block tile, (BN/TN, BM/TM), which Groups and
// the kernel's indexing assume.
func TestMembers(t *testing.T) {
	for _, mb := range matmultest.Members {
		if r := mb.Kernel.Refused(); r != "" {
			t.Errorf("%s is refused: %s", mb.Kernel.Name(), r)
			continue
		}
		c := matmultest.Tile(mb.Kernel)
		want := xpu.Dim3{X: c.BN / c.TN, Y: c.BM / c.TM, Z: 1}
		if got := mb.Kernel.Block(); got != want {
			t.Errorf("%s: block %v, want %v for %+v", mb.Kernel.Name(), got, want, c)
		}
	}
}

// TestLaunchRefusesShortBuffers checks the lengths Tiled declares: a
// direct launch with any matrix one element short of its product of
// sizes is refused with gpu.ErrBufferLen naming the matrix and the rule,
// on every device present and by the reference runner, and writes
// nothing.
func TestLaunchRefusesShortBuffers(t *testing.T) {
	const m, n, k = 65, 67, 66 // three sizes, so that each product is its own
	groups := matmul.Groups(matmultest.Tile(matmul.Tile64x64Kernel), m, n)
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		poison := make([]float32, m*n)
		for i := range poison {
			poison[i] = float32(math.NaN())
		}
		for _, c := range []struct {
			name, rule string
			short      int // index of the short matrix among C, A, B
		}{{"C", "m*n = 4355", 0}, {"A", "m*k = 4290", 1}, {"B", "k*n = 4422", 2}} {
			lens := []int{m * n, m * k, k * n}
			lens[c.short]--
			C := upload(t, d, poison[:lens[0]])
			A, B := upload(t, d, make([]float32, lens[1])), upload(t, d, make([]float32, lens[2]))
			err := matmul.LaunchTile64x64(d.Stream(), groups, C, A, B, 0, 0, m, n, k, k, n, n, 1, 0)
			for _, w := range []string{"Tile64x64", "parameter " + c.name, fmt.Sprintf("%d elements", lens[c.short]), c.rule} {
				if !errors.Is(err, gpu.ErrBufferLen) || !strings.Contains(fmt.Sprint(err), w) {
					t.Fatalf("%s short: %v, want gpu.ErrBufferLen naming %q", c.name, err, w)
				}
			}
			got := make([]float32, lens[0])
			if err := C.Read(got); err != nil {
				t.Fatal(err)
			}
			if i := slices.IndexFunc(got, func(v float32) bool { return !math.IsNaN(float64(v)) }); i >= 0 {
				t.Fatalf("%s short: the refused launch wrote C[%d] = %v", c.name, i, got[i])
			}
		}
	})
	ref := [][]float32{make([]float32, m*n), make([]float32, m*k-1), make([]float32, k*n)}
	if err := matmul.Tile64x64Kernel.Reference(groups, ref[0], ref[1], ref[2], uint32(0), uint32(0), uint32(m), uint32(n), uint32(k), uint32(k), uint32(n), uint32(n), float32(1), float32(0)); !errors.Is(err, gpu.ErrBufferLen) || !strings.Contains(err.Error(), "parameter A") {
		t.Errorf("the reference with A short: %v, want gpu.ErrBufferLen naming A", err)
	}
}
