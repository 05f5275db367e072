package reduce_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/reduce"
	"github.com/goxpu/xpu/tune"
)

// lengths are the lengths the entry points are checked at: one element,
// less than a tile, several blocks of one tile each (two passes), and
// lengths past MaxBlocks tiles, where each block's chunk holds several
// tiles (300007: two, 2^20+17: five). The devices run them without the
// reference runner; short mode keeps the first four.
var lengths = []int{1, 255, 256*5 + 3, 300007, 100003, 1<<20 + 17}

func checkedLengths() []int {
	if testing.Short() {
		return lengths[:4]
	}
	return lengths
}

// height returns the height of the addition tree of a sum of n elements:
// the tiles of a chunk, at most 255 in a block's combine in any order,
// then the same over the partials in the last pass (at most four tiles).
func height(n int) int {
	tiles := (n + 255) / 256
	per := (tiles + reduce.MaxBlocks - 1) / reduce.MaxBlocks
	return per + 255 + 4 + 255
}

// forced returns a tuner that always takes form ("wave" or "shared") for
// every operation.
func forced(form string) *tune.Tuner {
	f := map[string]string{}
	for _, op := range []string{"sum", "dot", "max", "argmax", "scan", "sum-uint32", "scan-uint32"} {
		f["pays/"+reduce.PaysName(op)] = form
	}
	return &tune.Tuner{Force: f}
}

// forms are the Reducers' choices the entry points are checked in: no
// tuner (the shared form), each form forced, and a pinned tuner.
var forms = []struct {
	name string
	tu   *tune.Tuner
}{{"nil", nil}, {"shared", forced("shared")}, {"wave", forced("wave")}, {"pinned", &tune.Tuner{Pinned: true}}}

func upload[T any](t *testing.T, d *gpu.Device, v []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

func download[T any](t *testing.T, b *gpu.Buffer[T]) []T {
	t.Helper()
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEntryPoints checks every entry point, in every form, on every device
// present against the plain-Go model on fresh random inputs: sums within
// the bound of their tree's height, Max and ArgMax exactly.
func TestEntryPoints(t *testing.T) {
	seed, err := gputest.Seed()
	if err != nil {
		t.Fatal(err)
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, f := range forms {
			t.Run(f.name, func(t *testing.T) {
				red, err := reduce.New(d, f.tu)
				if err != nil {
					t.Fatal(err)
				}
				defer red.Release()
				for _, n := range checkedLengths() {
					t.Run(fmt.Sprint(n), func(t *testing.T) {
						r := rand.New(rand.NewPCG(seed, uint64(n)))
						checkEntryPoints(t, d, red, r, n)
					})
				}
			})
		}
	})
}

func checkEntryPoints(t *testing.T, d *gpu.Device, red *reduce.Reducer, r *rand.Rand, n int) {
	s := d.Stream()
	xs, ys := gputest.Floats(r, n, -1, 1), gputest.Floats(r, n, -1, 1)
	x, y := upload(t, d, xs), upload(t, d, ys)
	nan := float32(math.NaN())
	dst := upload(t, d, []float32{nan, nan})
	idx := upload(t, d, []uint32{0xdeadbeef})
	out := upload(t, d, make([]float32, n))
	h := height(n)

	if err := red.Sum(s, dst, x); err != nil {
		t.Fatal(err)
	}
	if got, want, abs := download(t, dst)[0], 0.0, 0.0; true {
		want, abs = sum64(xs)
		if !within(got, want, abs, h) {
			t.Errorf("Sum: %v, want %v within %d*2^-24*%v (seed in the subtest's name)", got, want, h, abs)
		}
	}
	if err := red.Dot(s, dst, x, y); err != nil {
		t.Fatal(err)
	}
	if got := download(t, dst)[0]; true {
		want, abs := dot64(xs, ys)
		if !within(got, want, abs, h+1) {
			t.Errorf("Dot: %v, want %v within %d*2^-24*%v", got, want, h+1, abs)
		}
	}
	for name, v := range map[string][]float32{"uniform": xs, "ties": gputest.WholeFloats(r, n, -3, 3), "seasoned": gputest.Seasoned(r, n)} {
		v := upload(t, d, v)
		vs := download(t, v)
		if err := red.Max(s, dst, v); err != nil {
			t.Fatal(err)
		}
		if got, want := download(t, dst)[0], maxOf(vs); !sameFloat(got, want) {
			t.Errorf("Max of %s: %v (%#x), want %v (%#x)", name, got, math.Float32bits(got), want, math.Float32bits(want))
		}
		if err := red.ArgMax(s, idx, v); err != nil {
			t.Fatal(err)
		}
		if got, want := download(t, idx)[0], argMaxOf(vs); int(got) != want {
			t.Errorf("ArgMax of %s: %d, want %d (x[%d] = %v)", name, got, want, want, vs[want])
		}
	}
	us := gputest.AnyUints(r, n)
	u, uout, usum := upload(t, d, us), upload(t, d, make([]uint32, n)), upload(t, d, []uint32{0xdeadbeef})
	if err := red.SumUint32(s, usum, u); err != nil {
		t.Fatal(err)
	}
	var want uint32
	for _, v := range us {
		want += v
	}
	if got := download(t, usum)[0]; got != want {
		t.Errorf("SumUint32: %d, want %d", got, want)
	}
	for _, exclusive := range []bool{false, true} {
		if err := red.ScanUint32(s, uout, u, exclusive); err != nil {
			t.Fatal(err)
		}
		got := download(t, uout)
		var acc uint32
		for i, v := range us {
			if !exclusive {
				acc += v
			}
			if got[i] != acc {
				t.Fatalf("ScanUint32 exclusive=%v: element %d: %d, want %d", exclusive, i, got[i], acc)
			}
			if exclusive {
				acc += v
			}
		}
	}
	for _, exclusive := range []bool{false, true} {
		if err := red.Scan(s, out, x, exclusive); err != nil {
			t.Fatal(err)
		}
		got := download(t, out)
		var want, abs float64
		for i, v := range xs {
			if !exclusive {
				want, abs = want+float64(v), abs+math.Abs(float64(v))
			}
			// Two chains of height h: the chunk's partial into the
			// offsets, then the tile's prefix from its offset.
			if !within(got[i], want, abs, 2*h) {
				t.Fatalf("Scan exclusive=%v: element %d: %v, want %v within %d*2^-24*%v", exclusive, i, got[i], want, 2*h, abs)
			}
			if exclusive {
				want, abs = want+float64(v), abs+math.Abs(float64(v))
			}
		}
	}
}

// semanticCase is an input of Max and ArgMax and their answers.
type semanticCase struct {
	name  string
	x     []float32
	index uint32
	max   float32
}

// semanticCases are the rules of Max and ArgMax that random inputs rarely
// meet, at a length whose blocks' chunks hold two tiles (512 elements):
// NaN wins at its first index (and Max gives the quiet NaN), +0 beats
// -0, the first of equal maxima wins, also where the later one is the
// same work-item's in the next tile (51210 and 51466: 256 apart, in one
// chunk).
func semanticCases() []semanticCase {
	const n = 300000
	fill := func(v float32, set map[int]float32) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = v
		}
		for i, w := range set {
			x[i] = w
		}
		return x
	}
	nan, qnan := float32(math.NaN()), math.Float32frombits(0x7fc00000)
	negZero := float32(math.Copysign(0, -1))
	inf := float32(math.Inf(1))
	return []semanticCase{
		{"NaN at its first index", fill(1, map[int]float32{51466: nan, 51210: nan, 200000: nan, 3: inf}), 51210, qnan},
		{"a negative NaN", fill(1, map[int]float32{65000: math.Float32frombits(0xffc00001)}), 65000, qnan},
		{"+0 beats -0", fill(negZero, map[int]float32{150277: 0, 150021: 0}), 150021, 0},
		{"all -0", fill(negZero, nil), 0, negZero},
		{"the first of equal maxima", fill(2, map[int]float32{51466: 5, 51210: 5, 51211: 5, n - 1: 5}), 51210, 5},
		{"all -Inf", fill(-inf, nil), 0, -inf},
		{"the last element", fill(-1, map[int]float32{n - 1: 0}), n - 1, 0},
	}
}

// TestSemantics checks semanticCases on the model, then on every device
// present in every form.
func TestSemantics(t *testing.T) {
	for _, c := range semanticCases() {
		if got := argMaxOf(c.x); uint32(got) != c.index || !sameFloat(maxOf(c.x), c.max) {
			t.Fatalf("%s: the model gives ArgMax %d and Max %v, want %d and %v", c.name, got, maxOf(c.x), c.index, c.max)
		}
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, f := range forms {
			red, err := reduce.New(d, f.tu)
			if err != nil {
				t.Fatal(err)
			}
			defer red.Release()
			s := d.Stream()
			for _, c := range semanticCases() {
				x := upload(t, d, c.x)
				dst, idx := upload(t, d, []float32{7}), upload(t, d, []uint32{7})
				if err := red.Max(s, dst, x); err != nil {
					t.Fatal(err)
				}
				if err := red.ArgMax(s, idx, x); err != nil {
					t.Fatal(err)
				}
				if got := download(t, dst)[0]; !sameFloat(got, c.max) {
					t.Errorf("%s, %s: Max %v (%#x), want %v (%#x)", f.name, c.name, got, math.Float32bits(got), c.max, math.Float32bits(c.max))
				}
				if got := download(t, idx)[0]; got != c.index {
					t.Errorf("%s, %s: ArgMax %d, want %d", f.name, c.name, got, c.index)
				}
			}
		}
	})
}

// TestChoice checks the form each tuner takes: a forced form where the
// device runs it, the shared one for a pinned tuner, and one of the two,
// measured, for a tuner that times.
func TestChoice(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		x := upload(t, d, gputest.Floats(rand.New(rand.NewPCG(1, 1)), 5000, -1, 1))
		dst := upload(t, d, []float32{0})
		for _, c := range []struct {
			name string
			tu   *tune.Tuner
			want string // "" for either
			src  tune.Source
		}{
			{"forced wave", forced("wave"), "wave", tune.Forced},
			{"forced shared", forced("shared"), "shared", tune.Forced},
			{"pinned", &tune.Tuner{Pinned: true}, "shared", tune.Pinned},
			{"measured", &tune.Tuner{}, "", tune.Measured},
		} {
			var chosen []*tune.Choice
			c.tu.Log = func(ch *tune.Choice) { chosen = append(chosen, ch) }
			red, err := reduce.New(d, c.tu)
			if err != nil {
				t.Fatal(err)
			}
			if err := red.Sum(d.Stream(), dst, x); err != nil {
				t.Fatal(err)
			}
			red.Release()
			if len(chosen) != 1 {
				t.Fatalf("%s: %d choices logged, want 1", c.name, len(chosen))
			}
			ch := chosen[0]
			t.Logf("%s: %s (%s), %s", c.name, ch.Chosen, ch.Source, ch.Key)
			if ch.Family != "pays/"+reduce.PaysName("sum") || ch.Key != "n=8192" || ch.Source != c.src || c.want != "" && ch.Chosen != c.want {
				t.Errorf("%s: chose %s (%s) in %s at %s, want %q (%s) in pays/%s at n=8192", c.name, ch.Chosen, ch.Source, ch.Family, ch.Key, c.want, c.src, reduce.PaysName("sum"))
			}
		}
	})
}

// TestBadInput checks that every entry point refuses what does not fit
// with an error naming the rule, and records nothing.
func TestBadInput(t *testing.T) {
	devs := gputest.Devices(t)
	if len(devs) == 0 {
		t.Skip("no device")
	}
	d := devs[0]
	if _, err := reduce.New(nil, nil); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("New(nil): %v, want gpu.ErrArgs", err)
	}
	red, err := reduce.New(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer red.Release()
	s := d.Stream()
	x, y := upload(t, d, make([]float32, 10)), upload(t, d, make([]float32, 11))
	empty := upload(t, d, []float32{})
	dst, short := upload(t, d, make([]float32, 1)), upload(t, d, make([]float32, 9))
	idx := upload(t, d, make([]uint32, 1))
	checks := []struct {
		name string
		err  error
		want error
		says string
	}{
		{"Sum of an empty buffer", red.Sum(s, dst, empty), gpu.ErrSize, "x holds 0 elements, not 1 to"},
		{"Max of an empty buffer", red.Max(s, dst, empty), gpu.ErrSize, "x holds 0 elements"},
		{"ArgMax of an empty buffer", red.ArgMax(s, idx, empty), gpu.ErrSize, "x holds 0 elements"},
		{"Scan of an empty buffer", red.Scan(s, dst, empty, false), gpu.ErrSize, "x holds 0 elements"},
		{"Dot of two lengths", red.Dot(s, dst, x, y), gpu.ErrSize, "of one length"},
		{"Dot of a short y", red.Dot(s, dst, y, x), gpu.ErrBufferLen, "y holds 10 elements, it needs 11"},
		{"Scan into a short dst", red.Scan(s, short, x, true), gpu.ErrBufferLen, "dst holds 9 elements, it needs 10"},
		{"ScanUint32 of an empty buffer", red.ScanUint32(s, upload(t, d, make([]uint32, 1)), upload(t, d, []uint32{}), false), gpu.ErrSize, "ScanUint32: x holds 0 elements"},
		{"SumUint32 into nil", red.SumUint32(s, nil, upload(t, d, make([]uint32, 3))), gpu.ErrArgs, "SumUint32: dst is nil"},
		{"Sum into an empty dst", red.Sum(s, empty, x), gpu.ErrBufferLen, "dst holds 0 elements, it needs 1"},
		{"Sum into nil", red.Sum(s, nil, x), gpu.ErrArgs, "dst is nil"},
		{"Sum of nil", red.Sum(s, dst, nil), gpu.ErrArgs, "x is nil"},
		{"Sum on a nil stream", red.Sum(nil, dst, x), gpu.ErrArgs, "a nil stream"},
		{"Sum of a zero Reducer", new(reduce.Reducer).Sum(s, dst, x), gpu.ErrArgs, "not made by New"},
	}
	if len(devs) > 1 {
		other := upload(t, devs[1], make([]float32, 10))
		checks = append(checks,
			struct {
				name string
				err  error
				want error
				says string
			}{"Sum of another device's buffer", red.Sum(s, dst, other), gpu.ErrForeignBuffer, "x is a buffer of another device"},
			struct {
				name string
				err  error
				want error
				says string
			}{"Sum on another device's stream", red.Sum(devs[1].Stream(), dst, x), gpu.ErrForeignBuffer, "the stream is of another device"})
	}
	for _, c := range checks {
		if !errors.Is(c.err, c.want) || !contains(c.err, c.says) {
			t.Errorf("%s: %v, want %v saying %q", c.name, c.err, c.want, c.says)
		}
	}
}

func contains(err error, s string) bool {
	return err != nil && len(s) > 0 && strings.Contains(err.Error(), s)
}
