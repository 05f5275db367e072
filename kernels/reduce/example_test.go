package reduce_test

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/reduce"
)

// A Reducer made once for a device serves every call after it; each call
// records its launches, and reading a result syncs.
func Example() {
	d, err := gpu.Open()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	red, err := reduce.New(d, nil) // nil: the shared-memory form, no timing
	if err != nil {
		fmt.Println(err)
		return
	}
	defer red.Release()

	v := make([]float32, 100000)
	for i := range v {
		v[i] = float32(i % 10)
	}
	v[4321] = 12
	x, _ := gpu.Upload(d, v)
	defer x.Release()
	sum, _ := gpu.NewBuffer[float32](d, 1)
	defer sum.Release()
	at, _ := gpu.NewBuffer[uint32](d, 1)
	defer at.Release()

	s := d.Stream()
	if err := red.Sum(s, sum, x); err != nil {
		fmt.Println(err)
		return
	}
	if err := red.ArgMax(s, at, x); err != nil {
		fmt.Println(err)
		return
	}
	total, _ := sum.Download()
	index, _ := at.Download()
	fmt.Println(total[0], index[0])
	// Output: 450011 4321
}
