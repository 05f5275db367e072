package dispatch_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/schema"
)

var (
	f32  = tensor.Descriptor{Format: tensor.F32, Layout: tensor.Contiguous}
	f32s = tensor.Descriptor{Format: tensor.F32, Layout: tensor.Strided}
	u32  = tensor.Descriptor{Format: tensor.U32, Layout: tensor.Contiguous}
	q8   = tensor.Descriptor{Format: tensor.Q8_0, Layout: tensor.BlockedRowMajor}
	q8im = tensor.Descriptor{Format: tensor.Q8_0, Layout: tensor.BlockedInputMajor}
)

// fixture is a registry whose kernels record, in ran, what ran.
type fixture struct {
	mu  sync.Mutex
	ran []string
}

func (f *fixture) run(name string) func(*dispatch.Call, []tensor.Tensor) error {
	return func(c *dispatch.Call, ts []tensor.Tensor) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.ran = append(f.ran, name)
		return nil
	}
}

func (f *fixture) adapter(name string, from, to tensor.Descriptor, kind dispatch.AdapterKind) dispatch.Adapter {
	return dispatch.Adapter{Name: name, From: from, To: to, Kind: kind, Run: func(c *dispatch.Call, dst, src tensor.Tensor) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		if !slices.Equal(dst.Shape(), src.Shape()) || dst.Descriptor() != to {
			return errors.New("the adapter's output is not of its shape and descriptor")
		}
		f.ran = append(f.ran, name)
		return nil
	}}
}

func (f *fixture) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.ran
	f.ran = nil
	return r
}

// ops are two operations: y = W x, and a sum with no reference.
func (f *fixture) ops() []dispatch.Op {
	return []dispatch.Op{
		{Name: "matvec", Operands: []string{"y", "w", "x"}, Outputs: 1, Reference: f.run("matvec reference")},
		{Name: "sum", Operands: []string{"s", "x"}, Outputs: 1, Check: func(ts []tensor.Tensor, _ any) error {
			if ts[0].Len() != 1 {
				return fmt.Errorf("sum: s has %d elements, not 1: %w", ts[0].Len(), gpu.ErrSize)
			}
			return nil
		}},
	}
}

func (f *fixture) auto() dispatch.Set {
	return dispatch.Set{
		Kernels: []dispatch.Kernel{
			{Name: "portable", Op: "matvec", Operands: []tensor.Descriptor{f32, f32, f32}, Priority: dispatch.Portable, Run: f.run("portable")},
			{Name: "simd", Op: "matvec", Operands: []tensor.Descriptor{f32, f32, f32}, Backends: []schema.Backend{schema.BackendCPU}, Priority: dispatch.SIMD,
				Accept: func(d *gpu.Device, ts []tensor.Tensor, _ any) error {
					if ts[1].Dim(1)%8 != 0 {
						return errors.New("its columns are not a multiple of 8")
					}
					return nil
				}, Run: f.run("simd")},
			{Name: "native", Op: "matvec", Operands: []tensor.Descriptor{f32, f32, f32}, Backends: []schema.Backend{schema.BackendCUDA}, Priority: dispatch.Native, Run: f.run("native")},
			{Name: "q8 input-major", Op: "matvec", Operands: []tensor.Descriptor{f32, q8im, f32}, Priority: dispatch.Portable, Run: f.run("q8 input-major")},
			{Name: "sum u32", Op: "sum", Operands: []tensor.Descriptor{u32, u32}, Priority: dispatch.Portable, Run: f.run("sum u32")},
		},
		Adapters: []dispatch.Adapter{
			f.adapter("pack", q8, q8im, dispatch.AtLoad),
			f.adapter("dense", f32s, f32, dispatch.PerCall),
		},
	}
}

func cpu(t *testing.T) *gpu.Device {
	t.Helper()
	d, err := gpu.OpenBackend(schema.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func dense[T tensor.Scalar](t *testing.T, d *gpu.Device, shape ...int) tensor.Tensor {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	b, err := gpu.NewBuffer[T](d, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	x, err := tensor.Dense(b, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func blocked(t *testing.T, d *gpu.Device, f tensor.Format, l tensor.Layout, rows, cols int) tensor.Tensor {
	t.Helper()
	bytes, _ := f.Bytes(rows * cols)
	b, err := gpu.NewBuffer[uint32](d, (bytes+3)/4)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	w, err := tensor.Blocked(b, f, l, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSelect checks exact selection: the highest priority that runs on
// the device and accepts, the rules of those passed over explained.
func TestSelect(t *testing.T) {
	d := cpu(t)
	var f fixture
	r := dispatch.New(f.ops(), f.auto)
	y, x := dense[float32](t, d, 4), dense[float32](t, d, 16)
	w := dense[float32](t, d, 4, 16)
	p, err := r.Lookup(d, "matvec", nil, y, w, x)
	if err != nil || p.Kernel.Name != "simd" || p.Adapter != nil || p.Fallback {
		t.Fatalf("a 4x16 matvec: %+v, %v", p, err)
	}
	if p.Key.String() != "matvec(f32/contiguous, f32/contiguous, f32/contiguous) on cpu" {
		t.Errorf("key %s", p.Key)
	}
	// 12 columns: the SIMD kernel's rule refuses, and the portable one runs.
	y12, x12 := dense[float32](t, d, 4), dense[float32](t, d, 12)
	w12 := dense[float32](t, d, 4, 12)
	p, err = r.Lookup(d, "matvec", nil, y12, w12, x12)
	if err != nil || p.Kernel.Name != "portable" || !slices.Equal(p.Why, []string{"simd: its columns are not a multiple of 8"}) {
		t.Fatalf("a 4x12 matvec: %+v, %v", p, err)
	}
	if err := r.Run(d.Stream(), nil, "matvec", nil, y12, w12, x12); err != nil || !slices.Equal(f.take(), []string{"portable"}) {
		t.Errorf("Run: %v, ran %v", err, f.ran)
	}
	if err := r.Register(dispatch.Kernel{Name: "late", Op: "sum", Operands: []tensor.Descriptor{u32, u32}, Run: f.run("late")}); !errors.Is(err, dispatch.ErrInUse) {
		t.Errorf("a registration after the first lookup: %v", err)
	}
	for _, c := range []struct {
		name string
		op   string
		ts   []tensor.Tensor
		want error
	}{
		{"an undefined operation", "gemm", []tensor.Tensor{y, w, x}, gpu.ErrArgs},
		{"too few operands", "matvec", []tensor.Tensor{y, w}, gpu.ErrArgs},
		{"a zero tensor", "matvec", []tensor.Tensor{y, {}, x}, gpu.ErrArgs},
		{"a sum of two elements", "sum", []tensor.Tensor{dense[uint32](t, d, 2), dense[uint32](t, d, 8)}, gpu.ErrSize},
		{"another device's operand", "matvec", []tensor.Tensor{y, w, dense[float32](t, cpu(t), 16)}, gpu.ErrForeignBuffer},
	} {
		if _, err := r.Lookup(d, c.op, nil, c.ts...); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestAdapters checks an adapter inserted visibly (a temporary of the
// caller's scope, a trace event), a packing refused per call unless
// allowed, and packing once with Convert.
func TestAdapters(t *testing.T) {
	d := cpu(t)
	var f fixture
	r := dispatch.New(f.ops(), f.auto)
	events := sink(d)
	y, x := dense[float32](t, d, 4), dense[float32](t, d, 64)
	wb := dense[float32](t, d, 8, 64)
	ws, err := wb.Transpose() // 64 x 8, strided
	if err != nil {
		t.Fatal(err)
	}
	y64, x8 := dense[float32](t, d, 64), dense[float32](t, d, 8)
	if err := r.Run(d.Stream(), nil, "matvec", nil, y64, ws, x8); !errors.Is(err, gpu.ErrArgs) || !strings.Contains(err.Error(), "no Scope") {
		t.Errorf("an adapted call without a scope: %v", err)
	}
	sc := dispatch.NewScope()
	defer sc.Release()
	if err := r.Run(d.Stream(), sc, "matvec", nil, y64, ws, x8); err != nil || !slices.Equal(f.take(), []string{"dense", "simd"}) {
		t.Fatalf("a strided weight: %v, ran %v", err, f.ran)
	}
	if es := events(); len(es) != 1 || es[0].Kind != trace.Adapter || es[0].Name != "dense" || !strings.Contains(es[0].Detail, "runs simd after dense") || !strings.Contains(es[0].Detail, "converts operand w") {
		t.Errorf("events %+v", es)
	}

	// A Q8_0 weight in row-major blocks: the kernel takes input-major
	// ones, and packing per call is refused; the weight's call falls
	// back to the reference, reported once.
	w := blocked(t, d, tensor.Q8_0, tensor.BlockedRowMajor, 4, 64)
	p, err := r.Lookup(d, "matvec", nil, y, w, x)
	if err != nil || !p.Fallback || len(p.Why) != 1 || !strings.Contains(p.Why[0], "convert it once at load (Registry.Convert to q8_0/blocked-input-major)") {
		t.Fatalf("a row-major Q8_0 weight: %+v, %v", p, err)
	}
	var warnings []string
	r.Warn = func(m string) { warnings = append(warnings, m) }
	for range 3 {
		if err := r.Run(d.Stream(), sc, "matvec", nil, y, w, x); err != nil {
			t.Fatal(err)
		}
	}
	if ran := f.take(); len(ran) != 3 || ran[0] != "matvec reference" {
		t.Errorf("ran %v", ran)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "no kernel takes matvec(f32/contiguous, q8_0/blocked-row-major, f32/contiguous) on cpu") {
		t.Errorf("warnings %q", warnings)
	}
	// Packed once, the weight runs on the input-major kernel.
	wp, err := r.Convert(d.Stream(), sc, q8im, w)
	if err != nil || wp.Descriptor() != q8im {
		t.Fatalf("Convert: %v, %v", wp, err)
	}
	if err := r.Run(d.Stream(), sc, "matvec", nil, y, wp, x); err != nil || !slices.Equal(f.take(), []string{"pack", "q8 input-major"}) {
		t.Errorf("the packed weight: %v, ran %v", err, f.ran)
	}
	if _, err := r.Convert(d.Stream(), sc, f32, w); !errors.Is(err, dispatch.ErrNoKernel) || !strings.Contains(err.Error(), "pack to q8_0/blocked-input-major") {
		t.Errorf("a conversion no adapter makes: %v", err)
	}

	// With packing per call allowed, the adapter runs inside the call.
	var g fixture
	r2 := dispatch.New(g.ops(), g.auto)
	r2.PackPerCall = true
	if err := r2.Run(d.Stream(), sc, "matvec", nil, y, w, x); err != nil || !slices.Equal(g.take(), []string{"pack", "q8 input-major"}) {
		t.Errorf("packing per call: %v, ran %v", err, g.ran)
	}
}

// TestRefusal checks a call nothing takes and no reference stands in
// for: the error names the key and what is registered.
func TestRefusal(t *testing.T) {
	d := cpu(t)
	var f fixture
	r := dispatch.New(f.ops(), f.auto)
	events := sink(d)
	s, x := dense[float32](t, d, 1), dense[float32](t, d, 8)
	err := r.Run(d.Stream(), nil, "sum", nil, s, x)
	var nk *dispatch.NoKernelError
	if !errors.As(err, &nk) || !errors.Is(err, dispatch.ErrNoKernel) ||
		err.Error() != "dispatch: no kernel takes sum(f32/contiguous, f32/contiguous) on cpu; registered for sum: sum u32(u32/contiguous, u32/contiguous) on every backend" {
		t.Errorf("a float sum: %v", err)
	}
	if es := events(); len(es) != 1 || es[0].Kind != trace.Refusal || es[0].Detail != err.Error() {
		t.Errorf("events %+v", es)
	}
	r2 := dispatch.New(f.ops(), f.auto)
	r2.NoFallback = true
	w := blocked(t, d, tensor.Q8_0, tensor.BlockedRowMajor, 4, 64)
	if _, err := r2.Lookup(d, "matvec", nil, dense[float32](t, d, 4), w, dense[float32](t, d, 64)); !errors.Is(err, dispatch.ErrNoKernel) {
		t.Errorf("without fallback: %v", err)
	}
}

// TestExplicit checks that a registration before first use replaces the
// automatic set, which RegisterAutomatic adds back, and that a kernel
// that cannot be is refused.
func TestExplicit(t *testing.T) {
	var f fixture
	r := dispatch.New(f.ops(), f.auto)
	if err := r.Register(dispatch.Kernel{Name: "mine", Op: "sum", Operands: []tensor.Descriptor{f32, f32}, Run: f.run("mine")}); err != nil {
		t.Fatal(err)
	}
	ks, err := r.Kernels()
	if err != nil || len(ks) != 1 || ks[0].Name != "mine" {
		t.Errorf("an explicit set: %v, %v", ks, err)
	}
	r2 := dispatch.New(f.ops(), f.auto)
	if err := r2.RegisterAutomatic(); err != nil {
		t.Fatal(err)
	}
	if err := r2.Register(dispatch.Kernel{Name: "mine", Op: "sum", Operands: []tensor.Descriptor{f32, f32}, Run: f.run("mine")}); err != nil {
		t.Fatal(err)
	}
	if ks, _ := r2.Kernels(); len(ks) != len(f.auto().Kernels)+1 {
		t.Errorf("the automatic set and one more: %d kernels", len(ks))
	}
	for _, c := range []struct {
		name string
		k    dispatch.Kernel
	}{
		{"no name", dispatch.Kernel{Op: "sum", Operands: []tensor.Descriptor{f32, f32}, Run: f.run("x")}},
		{"no operation", dispatch.Kernel{Name: "x", Op: "gemm", Operands: []tensor.Descriptor{f32, f32}, Run: f.run("x")}},
		{"an operand short", dispatch.Kernel{Name: "x", Op: "sum", Operands: []tensor.Descriptor{f32}, Run: f.run("x")}},
		{"a blocked scalar", dispatch.Kernel{Name: "x", Op: "sum", Operands: []tensor.Descriptor{f32, {Format: tensor.F32, Layout: tensor.BlockedRowMajor}}, Run: f.run("x")}},
	} {
		r := dispatch.New(f.ops(), f.auto)
		if err := r.Register(c.k); !errors.Is(err, gpu.ErrArgs) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	twice := dispatch.New([]dispatch.Op{{Name: "a", Operands: []string{"x"}}, {Name: "a", Operands: []string{"x"}}}, nil)
	if _, err := twice.Kernels(); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("an operation defined twice: %v", err)
	}
}

// TestMatrix checks the support matrix of the fixture's registrations.
func TestMatrix(t *testing.T) {
	var f fixture
	r := dispatch.New(f.ops(), f.auto)
	m, err := r.Matrix()
	if err != nil {
		t.Fatal(err)
	}
	want := `| operation | operands | webgpu | cpu | cuda | hip |
|---|---|---|---|---|---|
| matvec | y f32/contiguous, w f32/contiguous, x f32/contiguous | portable | simd, portable | native, portable | portable |
| matvec | y f32/contiguous, w q8_0/blocked-input-major, x f32/contiguous | q8 input-major | q8 input-major | q8 input-major | q8 input-major |
| sum | s u32/contiguous, x u32/contiguous | sum u32 | sum u32 | sum u32 | sum u32 |

| adapter | from | to | kind | backends |
|---|---|---|---|---|
| dense | f32/strided | f32/contiguous | per call | every backend |
| pack | q8_0/blocked-row-major | q8_0/blocked-input-major | at load | every backend |
`
	if m != want {
		t.Errorf("matrix:\n%s\nwant:\n%s", m, want)
	}
}

// sink sets a trace sink on d and returns what it has seen so far.
func sink(d *gpu.Device) func() []trace.Event {
	var mu sync.Mutex
	var es []trace.Event
	d.SetTrace(trace.Func(func(e trace.Event) {
		mu.Lock()
		es = append(es, e)
		mu.Unlock()
	}))
	return func() []trace.Event {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(es)
	}
}
