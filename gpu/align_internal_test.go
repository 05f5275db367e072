package gpu

import (
	"errors"
	"testing"

	"github.com/goxpu/xpu"
)

// alignKernel binds one buffer; its code is never compiled by this test.
var alignKernel = Register(&KernelSpec{
	Name:   "github.com/goxpu/xpu/gpu.alignTest",
	Block:  xpu.Dim3{X: 64},
	Params: []Param{{Name: "y", Kind: ParamBuffer, Type: "float32", Size: 4, Access: AccessWrite}},
	WGSL:   "@group(0) @binding(0) var<storage, read_write> y: array<f32>;\n@compute @workgroup_size(64) fn main() { y[0] = 1.0; }",
	CPU:    func(*CPUBlock) {},
})

// TestMisalignedBuffer binds a buffer that starts at byte 4 of its device
// memory, as a view into a larger allocation would, on every backend
// present: both the webgpu (256-byte) and the CPU (8-byte) storage
// alignments refuse it by name. Buffers are whole allocations today, so
// the test sets the offset itself.
func TestMisalignedBuffer(t *testing.T) {
	for _, name := range Backends() {
		t.Run(name, func(t *testing.T) {
			d, err := OpenBackend(name)
			if err != nil {
				t.Skip(err)
			}
			defer d.Close()
			if d.Info().Limits.StorageOffsetAlignment <= 4 {
				t.Skip("the device binds storage at any 4-byte offset")
			}
			b, err := NewBuffer[float32](d, 64)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Release()
			b.st.offset = 4
			err = d.Stream().Launch(alignKernel, xpu.Dim3{X: 1}, b)
			if !errors.Is(err, ErrMisaligned) {
				t.Fatalf("launch of a buffer at offset 4: %v, want ErrMisaligned", err)
			}
			b.st.offset = 0
			if err := d.Stream().Launch(alignKernel, xpu.Dim3{X: 1}, b); err != nil {
				t.Fatalf("an aligned buffer is refused: %v", err)
			}
		})
	}
}
