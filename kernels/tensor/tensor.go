package tensor

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/goxpu/xpu/gpu"
)

// Scalar is the element types of scalar tensors.
type Scalar interface{ float32 | int32 | uint32 }

// A Tensor is a view of a device buffer: its format, layout class, shape
// and, for a scalar format, strides in elements. The zero Tensor views
// nothing. Make one with [Dense], [View] or [Blocked].
type Tensor struct {
	buf     any // *gpu.Buffer[float32], [int32] or [uint32]
	dev     *gpu.Device
	format  Format
	layout  Layout
	shape   []int
	strides []int // nil for a blocked layout
}

// formatOf returns the scalar format of T.
func formatOf[T Scalar]() Format {
	var z T
	switch any(z).(type) {
	case float32:
		return F32
	case int32:
		return I32
	default:
		return U32
	}
}

// Dense returns the contiguous tensor of the given shape over b's first
// elements: row-major, the last dimension's stride 1. A shape of no
// dimensions is a scalar, one element. It is an error wrapping
// [gpu.ErrSize] for a dimension below 1 or a buffer shorter than the
// shape, and [gpu.ErrArgs] for a nil or released buffer.
func Dense[T Scalar](b *gpu.Buffer[T], shape ...int) (Tensor, error) {
	return View(b, shape, RowMajor(shape))
}

// RowMajor returns the strides of a contiguous tensor of the shape.
func RowMajor(shape []int) []int {
	st := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = n
		n *= shape[i]
	}
	return st
}

// View returns the tensor of the given shape and strides (in
// elements, non-negative) over b: element (i0, i1, ...) is b[i0*s0 +
// i1*s1 + ...]. Its layout is Contiguous when the strides are the
// shape's row-major ones and Strided otherwise. Every element must lie
// in b ([gpu.ErrSize]).
func View[T Scalar](b *gpu.Buffer[T], shape, strides []int) (Tensor, error) {
	f := formatOf[T]()
	if err := checkBuffer(b, f); err != nil {
		return Tensor{}, err
	}
	if len(strides) != len(shape) {
		return Tensor{}, fmt.Errorf("tensor: %s%v: %d strides %v for %d dimensions: %w", f, shape, len(strides), strides, len(shape), gpu.ErrSize)
	}
	last := 0 // the offset of the last element
	for i, n := range shape {
		if n < 1 {
			return Tensor{}, fmt.Errorf("tensor: %s%v: dimension %d is %d, below 1: %w", f, shape, i, n, gpu.ErrSize)
		}
		if strides[i] < 0 {
			return Tensor{}, fmt.Errorf("tensor: %s%v: stride %d is %d; strides are not negative: %w", f, shape, i, strides[i], gpu.ErrSize)
		}
		last += (n - 1) * strides[i]
	}
	if last >= b.Len() {
		return Tensor{}, fmt.Errorf("tensor: %s%v strides %v reaches element %d of a buffer of %d: %w", f, shape, strides, last, b.Len(), gpu.ErrSize)
	}
	t := Tensor{buf: b, dev: b.Device(), format: f, shape: slices.Clone(shape), strides: slices.Clone(strides)}
	t.classify()
	return t, nil
}

// Blocked returns the tensor of block format f in blocked layout l over
// the bytes in b's words (little-endian). Its last dimension is a whole
// number of f's blocks; an input-major tensor is a matrix (two
// dimensions). b holds at least the blocks' bytes, rounded up to words.
func Blocked(b *gpu.Buffer[uint32], f Format, l Layout, shape ...int) (Tensor, error) {
	if !f.Blocked() || !l.Blocked() {
		return Tensor{}, fmt.Errorf("tensor: Blocked %s/%s: the format and layout must both be blocked: %w", f, l, gpu.ErrArgs)
	}
	if err := checkBuffer(b, f); err != nil {
		return Tensor{}, err
	}
	if len(shape) == 0 {
		return Tensor{}, fmt.Errorf("tensor: a %s tensor of no dimensions: blocks are cut from the last one: %w", f, gpu.ErrSize)
	}
	if l == BlockedInputMajor && len(shape) != 2 {
		return Tensor{}, fmt.Errorf("tensor: %s%v %s: an input-major tensor is a matrix: %w", f, shape, l, gpu.ErrSize)
	}
	n := 1
	for i, d := range shape {
		if d < 1 {
			return Tensor{}, fmt.Errorf("tensor: %s%v: dimension %d is %d, below 1: %w", f, shape, i, d, gpu.ErrSize)
		}
		n *= d
	}
	if last := shape[len(shape)-1]; last%f.BlockSize() != 0 {
		return Tensor{}, fmt.Errorf("tensor: %s%v: the last dimension, %d, is not a whole number of %d-element blocks: %w", f, shape, last, f.BlockSize(), gpu.ErrSize)
	}
	bytes, _ := f.Bytes(n)
	if words := (bytes + 3) / 4; b.Len() < words {
		return Tensor{}, fmt.Errorf("tensor: %s%v: %d blocks take %d words; the buffer has %d: %w", f, shape, n/f.BlockSize(), words, b.Len(), gpu.ErrSize)
	}
	return Tensor{buf: b, dev: b.Device(), format: f, layout: l, shape: slices.Clone(shape)}, nil
}

// checkBuffer checks that b is a live buffer to view in format f.
func checkBuffer[T any](b *gpu.Buffer[T], f Format) error {
	if b == nil || b.Device() == nil {
		return fmt.Errorf("tensor: a %s tensor of a nil or released buffer: %w", f, gpu.ErrArgs)
	}
	return nil
}

// Buffer returns the tensor's buffer as a buffer of T: an error wrapping
// [gpu.ErrType] when its elements are not T's (a block format's are
// uint32 words), [gpu.ErrArgs] for the zero Tensor.
func Buffer[T Scalar](t Tensor) (*gpu.Buffer[T], error) {
	if t.buf == nil {
		return nil, fmt.Errorf("tensor: the buffer of %s, which views none: %w", t, gpu.ErrArgs)
	}
	b, ok := t.buf.(*gpu.Buffer[T])
	if !ok {
		return nil, fmt.Errorf("tensor: %s is held in a %s, not a Buffer[%s]: %w", t, reflect.TypeOf(t.buf).Elem().Name(), reflect.TypeFor[T](), gpu.ErrType)
	}
	return b, nil
}

// Transpose returns the matrix (a tensor of two dimensions and a scalar
// format) with its dimensions and strides swapped: a Strided view of the
// same elements, unless a dimension is 1.
func (t Tensor) Transpose() (Tensor, error) {
	if len(t.shape) != 2 || t.layout.Blocked() || t.IsZero() {
		return Tensor{}, fmt.Errorf("tensor: Transpose of %s: only a matrix of a scalar format transposes: %w", t, gpu.ErrArgs)
	}
	u := t
	u.shape = []int{t.shape[1], t.shape[0]}
	u.strides = []int{t.strides[1], t.strides[0]}
	u.classify()
	return u, nil
}

// classify sets the layout of a scalar tensor from its strides: it is
// Contiguous when every dimension of more than one element has its
// row-major stride (a dimension of one is never stepped over, so its
// stride says nothing), and then its strides are the row-major ones.
func (t *Tensor) classify() {
	rm := RowMajor(t.shape)
	t.layout = Contiguous
	for i, n := range t.shape {
		if n > 1 && t.strides[i] != rm[i] {
			t.layout = Strided
			return
		}
	}
	t.strides = rm
}

// Describe returns a tensor of descriptor d and the given shape that
// views no buffer: contiguous or blocked as d says, with row-major
// strides for a scalar format. It stands for a tensor yet to be made
// (a temporary an adapter will write) where a rule reads only the
// descriptor, the shape and the strides; [Buffer] of it is an error.
func Describe(d Descriptor, shape ...int) Tensor {
	t := Tensor{format: d.Format, layout: d.Layout, shape: slices.Clone(shape)}
	if !d.Layout.Blocked() {
		t.layout, t.strides = Contiguous, RowMajor(shape)
	}
	return t
}

// IsZero reports whether t is the zero Tensor.
func (t Tensor) IsZero() bool { return t.format == 0 }

// Format returns the tensor's format.
func (t Tensor) Format() Format { return t.format }

// Layout returns the tensor's layout class.
func (t Tensor) Layout() Layout { return t.layout }

// Descriptor returns the tensor's format and layout class.
func (t Tensor) Descriptor() Descriptor { return Descriptor{t.format, t.layout} }

// Device returns the device of the tensor's buffer.
func (t Tensor) Device() *gpu.Device { return t.dev }

// Rank returns the number of dimensions.
func (t Tensor) Rank() int { return len(t.shape) }

// Shape returns a copy of the tensor's dimensions.
func (t Tensor) Shape() []int { return slices.Clone(t.shape) }

// Dim returns dimension i, or 0 past the last.
func (t Tensor) Dim(i int) int {
	if i < 0 || i >= len(t.shape) {
		return 0
	}
	return t.shape[i]
}

// Strides returns a copy of the tensor's strides in elements; nil for a
// blocked layout.
func (t Tensor) Strides() []int { return slices.Clone(t.strides) }

// Len returns the number of elements: the product of the dimensions.
func (t Tensor) Len() int {
	if t.IsZero() {
		return 0
	}
	n := 1
	for _, d := range t.shape {
		n *= d
	}
	return n
}

// String describes the tensor: "f32[64 32] contiguous",
// "f32[32 64] strided [1 32]".
func (t Tensor) String() string {
	if t.IsZero() {
		return "tensor.Tensor{}"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%v %s", t.format, t.shape, t.layout)
	if t.layout == Strided {
		fmt.Fprintf(&b, " %v", t.strides)
	}
	return b.String()
}
