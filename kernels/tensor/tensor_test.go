package tensor_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/schema"
)

// cpu opens the CPU backend, which every machine has.
func cpu(t *testing.T) *gpu.Device {
	t.Helper()
	d, err := gpu.OpenBackend(schema.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func TestViews(t *testing.T) {
	d := cpu(t)
	b, err := gpu.NewBuffer[float32](d, 64)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tensor.Dense(b, 4, 8)
	if err != nil || m.Descriptor() != (tensor.Descriptor{Format: tensor.F32, Layout: tensor.Contiguous}) || !slices.Equal(m.Strides(), []int{8, 1}) || m.Len() != 32 {
		t.Fatalf("Dense 4x8: %v, %v", m, err)
	}
	mt, err := m.Transpose()
	if err != nil || mt.Layout() != tensor.Strided || !slices.Equal(mt.Shape(), []int{8, 4}) || !slices.Equal(mt.Strides(), []int{1, 8}) {
		t.Fatalf("its transpose: %v, %v", mt, err)
	}
	if s := mt.String(); s != "f32[8 4] strided [1 8]" {
		t.Errorf("String: %q", s)
	}
	for _, c := range []struct {
		shape, strides []int
		want           tensor.Layout
	}{
		{[]int{4, 16}, []int{16, 1}, tensor.Contiguous},
		{[]int{4, 8}, []int{16, 1}, tensor.Strided}, // rows padded
		{[]int{1, 8}, []int{99, 1}, tensor.Contiguous},
		{[]int{8, 1}, []int{1, 5}, tensor.Contiguous}, // a column vector: one element a row
		{[]int{8}, []int{2}, tensor.Strided},
		{nil, nil, tensor.Contiguous}, // a scalar
	} {
		v, err := tensor.View(b, c.shape, c.strides)
		if err != nil || v.Layout() != c.want {
			t.Errorf("View %v %v: %v, %v; want %s", c.shape, c.strides, v, err, c.want)
		}
	}
	for _, c := range []struct{ shape, strides []int }{
		{[]int{8, 9}, []int{8, 1}},  // past the end
		{[]int{0, 4}, []int{4, 1}},  // an empty dimension
		{[]int{4, 4}, []int{-4, 1}}, // a negative stride
		{[]int{4, 4}, []int{4}},     // strides for another rank
	} {
		if v, err := tensor.View(b, c.shape, c.strides); !errors.Is(err, gpu.ErrSize) {
			t.Errorf("View %v %v: %v, %v; want gpu.ErrSize", c.shape, c.strides, v, err)
		}
	}
	if _, err := tensor.Buffer[uint32](m); !errors.Is(err, gpu.ErrType) {
		t.Errorf("a float32 tensor's buffer as uint32 words: %v", err)
	}
	if got, err := tensor.Buffer[float32](m); got != b || err != nil {
		t.Errorf("Buffer: %v, %v", got, err)
	}
	if _, err := tensor.Dense[float32](nil, 4); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("a nil buffer: %v", err)
	}
}

func TestBlocked(t *testing.T) {
	d := cpu(t)
	// 4 rows of 64 Q8_0 elements: 8 blocks of 34 bytes, 272 bytes, 68 words.
	w, err := gpu.NewBuffer[uint32](d, 68)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []tensor.Layout{tensor.BlockedRowMajor, tensor.BlockedInputMajor} {
		q, err := tensor.Blocked(w, tensor.Q8_0, l, 4, 64)
		if err != nil || q.Descriptor() != (tensor.Descriptor{Format: tensor.Q8_0, Layout: l}) || q.Strides() != nil || q.Len() != 256 {
			t.Errorf("Blocked %s: %v, %v", l, q, err)
		}
	}
	for _, c := range []struct {
		name  string
		f     tensor.Format
		l     tensor.Layout
		shape []int
		want  error
	}{
		{"a scalar format", tensor.F32, tensor.BlockedRowMajor, []int{4, 64}, gpu.ErrArgs},
		{"a scalar layout", tensor.Q8_0, tensor.Contiguous, []int{4, 64}, gpu.ErrArgs},
		{"part of a block", tensor.Q8_0, tensor.BlockedRowMajor, []int{4, 48}, gpu.ErrSize},
		{"too few words", tensor.Q8_0, tensor.BlockedRowMajor, []int{5, 64}, gpu.ErrSize},
		{"input-major of three dimensions", tensor.Q4_0, tensor.BlockedInputMajor, []int{2, 2, 32}, gpu.ErrSize},
		{"no dimensions", tensor.Q4_0, tensor.BlockedRowMajor, nil, gpu.ErrSize},
	} {
		if _, err := tensor.Blocked(w, c.f, c.l, c.shape...); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	q, _ := tensor.Blocked(w, tensor.Q4_0, tensor.BlockedRowMajor, 4, 64)
	if _, err := q.Transpose(); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("a blocked tensor transposed: %v", err)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		f            tensor.Format
		block, bytes int
		ggml         uint32
	}{
		{tensor.F32, 1, 4, 0}, {tensor.I32, 1, 4, 26}, {tensor.Q8_0, 32, 34, 8}, {tensor.Q4_0, 32, 18, 2}, {tensor.Q4_K, 256, 144, 12},
	} {
		g, ok := c.f.GGML()
		if c.f.BlockSize() != c.block || c.f.BlockBytes() != c.bytes || g != c.ggml || !ok {
			t.Errorf("%s: block %d of %d bytes, ggml %d %t", c.f, c.f.BlockSize(), c.f.BlockBytes(), g, ok)
		}
	}
	if _, ok := tensor.U32.GGML(); ok {
		t.Error("u32 has a GGUF type")
	}
	if n, ok := tensor.Q4_0.Bytes(96); n != 54 || !ok {
		t.Errorf("96 q4_0 elements: %d bytes, %t", n, ok)
	}
	if _, ok := tensor.Q4_0.Bytes(40); ok {
		t.Error("40 q4_0 elements are whole blocks")
	}
	var valid []string
	for _, f := range tensor.Formats() {
		for _, l := range tensor.Layouts() {
			if d := (tensor.Descriptor{Format: f, Layout: l}); d.Valid() {
				valid = append(valid, d.String())
			}
		}
	}
	want := []string{"f32/contiguous", "f32/strided", "i32/contiguous", "i32/strided", "u32/contiguous", "u32/strided",
		"q8_0/blocked-row-major", "q8_0/blocked-input-major", "q4_0/blocked-row-major", "q4_0/blocked-input-major",
		"q4_k/blocked-row-major", "q4_k/blocked-input-major"}
	if !slices.Equal(valid, want) {
		t.Errorf("valid descriptors %v", valid)
	}
}

func TestDescribe(t *testing.T) {
	d := tensor.Describe(tensor.Descriptor{Format: tensor.F32, Layout: tensor.Strided}, 3, 4)
	if d.IsZero() || d.Layout() != tensor.Contiguous || !slices.Equal(d.Strides(), []int{4, 1}) || d.Len() != 12 {
		t.Errorf("a described matrix: %v, strides %v", d, d.Strides())
	}
	if _, err := tensor.Buffer[float32](d); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("the buffer of a described tensor: %v", err)
	}
	q := tensor.Describe(tensor.Descriptor{Format: tensor.Q8_0, Layout: tensor.BlockedInputMajor}, 2, 64)
	if q.Descriptor() != (tensor.Descriptor{Format: tensor.Q8_0, Layout: tensor.BlockedInputMajor}) || q.Strides() != nil {
		t.Errorf("a described blocked matrix: %v", q)
	}
	if !(tensor.Tensor{}).IsZero() {
		t.Error("the zero Tensor is not zero")
	}
}
