package sort_test

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/sort"
)

// A Sorter made once for the longest length serves every call after it;
// each call records its launches, and reading a result syncs.
func Example() {
	d, err := gpu.Open()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	so, err := sort.New(d, 1<<16)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer so.Release()

	// Sort 5000 scores, descending through their complements, carrying
	// each one's owner.
	scores, owners := make([]uint32, 5000), make([]uint32, 5000)
	for i := range scores {
		scores[i] = ^uint32(i * 7919 % 5000)
		owners[i] = uint32(i)
	}
	k, _ := gpu.Upload(d, scores)
	defer k.Release()
	v, _ := gpu.Upload(d, owners)
	defer v.Release()
	if err := so.Pairs(d.Stream(), k, v); err != nil {
		fmt.Println(err)
		return
	}
	best, _ := k.Download()
	who, _ := v.Download()
	fmt.Println(^best[0], who[0], ^best[4999], who[4999])
	// Output: 4999 2321 0 0
}
