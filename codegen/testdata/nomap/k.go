// Package nomap holds a kernel that the front end refuses: it uses a map.
package nomap

import "github.com/goxpu/xpu"

// Lookup reads through a map, which devices do not have.
//
//xpu:kernel block=64
func Lookup(t xpu.Thread, out []int32) {
	m := map[int32]int32{1: 2}
	out[t.GlobalX()] = m[1]
}
