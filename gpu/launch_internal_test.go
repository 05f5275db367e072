package gpu

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// stagedKernel is y = a*x + y over n, with a fault word.
var stagedKernel = register(&driver.Kernel{
	Name:  "github.com/goxpu/xpu/gpu.staged",
	Block: xpu.Dim3{X: 64},
	Params: []schema.Param{
		{Name: "y", Kind: schema.ParamBuffer, Type: f32, Size: 4, Access: schema.AccessReadWrite, Binding: 0, MinLen: []string{"n"}},
		{Name: "x", Kind: schema.ParamBuffer, Type: f32, Size: 4, Access: schema.AccessRead, Binding: 1},
		{Name: "a", Kind: schema.ParamScalar, Type: f32, Size: 4, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Func:        func(xpu.Thread, []float32, []float32, float32, uint32) {},
	Artifacts: []schema.Artifact{{
		Manifest: schema.Manifest{Backend: stubBackend, Target: schema.TargetWGSL, Fault: true},
		Code:     "the stub driver compiles anything",
	}},
})

var f32 = schema.TypeName{Name: "float32"}

func openRecording(t *testing.T) (*Device, *stubQueue) {
	t.Helper()
	d, q, err := newStub(driver.Info{Backend: stubBackend, Limits: driver.Limits{MaxGroups: 1 << 16}}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, q
}

// TestLaunchStages follows launches through the stages: what record
// hands the queue is what bind made (the buffers in parameter order, the
// fault word after them, the scalars at their offsets, the grid with Y
// and Z as 1); a launch refused by check or by bind hands the queue
// nothing and leaves no buffer locked and no binding behind.
func TestLaunchStages(t *testing.T) {
	d, q := openRecording(t)
	s := d.Stream()
	y, err := NewBuffer[float32](d, 64)
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewBuffer[float32](d, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Launch(stagedKernel, xpu.Dim3{X: 1}, y, x, float32(2.5), uint32(64)); err != nil {
		t.Fatal(err)
	}
	if len(q.launches) != 1 {
		t.Fatalf("%d launches recorded, want 1", len(q.launches))
	}
	l := q.launches[0]
	if l.groups != (xpu.Dim3{X: 1, Y: 1, Z: 1}) {
		t.Errorf("grid %v, want 1x1x1", l.groups)
	}
	if len(l.bufs) != 3 || l.bufs[0] != y.st.bound || l.bufs[1] != x.st.bound || l.bufs[2] != s.fault || s.fault == nil {
		t.Errorf("buffers %v, want y, x and the fault word", l.bufs)
	}
	if len(l.uniforms) != 16 || math.Float32frombits(binary.LittleEndian.Uint32(l.uniforms)) != 2.5 || binary.LittleEndian.Uint32(l.uniforms[4:]) != 64 {
		t.Errorf("uniforms % x, want a = 2.5 at 0 and n = 64 at 4", l.uniforms)
	}

	for _, c := range []struct {
		stage string
		want  error
		args  []any
		grid  xpu.Dim3
	}{
		{"check: grid", ErrGrid, []any{y, x, float32(1), uint32(64)}, xpu.Dim3{}},
		{"check: arguments", ErrArgs, []any{y, x, float32(1)}, xpu.Dim3{X: 1}},
		{"bind: scalar", ErrArgs, []any{y, x, 1.0, uint32(64)}, xpu.Dim3{X: 1}},
		{"bind: aliasing", ErrArgs, []any{y, y, float32(1), uint32(64)}, xpu.Dim3{X: 1}},
		{"bind: length", ErrBufferLen, []any{y, x, float32(1), uint32(65)}, xpu.Dim3{X: 1}},
	} {
		err := s.Launch(stagedKernel, c.grid, c.args...)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.stage, err, c.want)
		}
		if len(q.launches) != 1 {
			t.Fatalf("%s: the refused launch was recorded", c.stage)
		}
		b := &s.scratch
		if len(b.bufs)+len(b.states)+len(b.spans)+len(b.locked) != 0 {
			t.Errorf("%s: a binding left behind: %+v", c.stage, b)
		}
		if !y.st.mu.TryLock() {
			t.Fatalf("%s: a buffer left locked", c.stage)
		}
		y.st.mu.Unlock()
	}
}

// TestReferenceStages runs a reference through the same check stage: it
// refuses what a launch's check refuses, with the same errors, before
// binding slices.
func TestReferenceStages(t *testing.T) {
	d, _ := openRecording(t)
	yv, xv := make([]float32, 64), make([]float32, 64)
	for _, c := range []struct {
		stage string
		want  error
		run   func() error
	}{
		{"check: grid", ErrGrid, func() error { return stagedKernel.Reference(xpu.Dim3{}, yv, xv, float32(1), uint32(64)) }},
		{"check: device grid", ErrGrid, func() error { return d.Reference(stagedKernel, xpu.Dim3{X: 1 << 17}, yv, xv, float32(1), uint32(64)) }},
		{"check: arguments", ErrArgs, func() error { return d.Reference(stagedKernel, xpu.Dim3{X: 1}, yv, xv) }},
		{"bind: slices", ErrArgs, func() error { return stagedKernel.Reference(xpu.Dim3{X: 1}, yv, yv, float32(1), uint32(64)) }},
	} {
		if err := c.run(); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.stage, err, c.want)
		}
	}
	if err := d.Reference(stagedKernel, xpu.Dim3{X: 1}, yv, xv, float32(1), uint32(64)); err != nil {
		t.Fatal(err)
	}
}
