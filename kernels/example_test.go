package kernels_test

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/schema"
)

// Example multiplies a matrix by another's transpose through the
// library's registry, which says which kernel takes the operands.
func Example() {
	d, err := gpu.OpenBackend(schema.BackendCPU)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	a, _ := gpu.Upload(d, []float32{1, 2, 3, 4, 5, 6}) // 2 x 3
	b, _ := gpu.Upload(d, []float32{1, 0, 0, 1, 1, 1}) // stored 2 x 3: b is its transpose, 3 x 2
	c, _ := gpu.NewBuffer[float32](d, 4)
	defer a.Release()
	defer b.Release()
	defer c.Release()
	A, _ := tensor.Dense(a, 2, 3)
	Bt, _ := tensor.Dense(b, 2, 3)
	B, _ := Bt.Transpose()
	C, _ := tensor.Dense(c, 2, 2)

	plan, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, C, A, B)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plan.Detail())
	sc := dispatch.NewScope()
	defer sc.Release()
	if err := kernels.MatMul(d.Stream(), sc, C, A, B); err != nil {
		fmt.Println(err)
		return
	}
	got, _ := c.Download()
	fmt.Println(got)
	// Output:
	// matmul(f32/contiguous, f32/contiguous, f32/strided) on cpu runs kernels/simd.Sgemm
	// [1 6 4 15]
}
