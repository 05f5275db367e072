package layout

import (
	"fmt"
	"math"
	"slices"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/tensor"
)

// maxGroups bounds Gather's grid: the least groups per dimension a
// WebGPU device offers; the work-items stride through the rest.
const maxGroups = 65535

// Contiguous copies the float32 tensor src, of up to four dimensions and
// any strides, into dst, a contiguous tensor of its shape, recording the
// launch on s without syncing. It is an error wrapping gpu.ErrSize when
// the shapes differ or an offset reaches 2^32, gpu.ErrType for another
// format, gpu.ErrArgs for a dst that is not contiguous or a rank above
// four.
func Contiguous(s *gpu.Stream, dst, src tensor.Tensor) error {
	if src.Format() != tensor.F32 || dst.Format() != tensor.F32 {
		return fmt.Errorf("layout: Contiguous of %s into %s: float32 tensors only: %w", src, dst, gpu.ErrType)
	}
	if dst.Layout() != tensor.Contiguous || src.Rank() > 4 {
		return fmt.Errorf("layout: Contiguous of %s into %s: into a contiguous tensor, from one of at most 4 dimensions: %w", src, dst, gpu.ErrArgs)
	}
	if !slices.Equal(src.Shape(), dst.Shape()) {
		return fmt.Errorf("layout: Contiguous of %s into %s: the shapes differ: %w", src, dst, gpu.ErrSize)
	}
	last := 0 // the offset of the last element
	for i, d := range src.Shape() {
		last += (d - 1) * src.Strides()[i]
	}
	if n := src.Len(); n > math.MaxUint32 || last > math.MaxUint32 {
		return fmt.Errorf("layout: Contiguous of %s: %d elements, the last at offset %d: Gather indexes below 2^32: %w", src, n, last, gpu.ErrSize)
	}
	dims, strides := [4]uint32{1, 1, 1, 1}, [4]uint32{}
	for i, d := range src.Shape() {
		j := 4 - src.Rank() + i
		dims[j], strides[j] = uint32(d), uint32(src.Strides()[i])
	}
	d, err := tensor.Buffer[float32](dst)
	if err != nil {
		return err
	}
	sb, err := tensor.Buffer[float32](src)
	if err != nil {
		return err
	}
	n := uint32(src.Len())
	groups := xpu.Dim3{X: min(xpu.GroupsFor(n, gatherBlock), maxGroups)}
	return LaunchGather(s, groups, d, sb, n, dims[1], dims[2], dims[3], strides[0], strides[1], strides[2], strides[3])
}
