// Package shadowed declares a name Go predeclares that its generated
// file uses, and a struct type that the CPU code's locals would hide: the
// generation is refused by name.
package shadowed

import "github.com/goxpu/xpu"

// error hides Go's error, which the launchers return.
type error struct{}

// b is a buffer element, named like the CPU code's block parameter.
type b struct{ X uint32 }

//xpu:kernel block=64
func Fill(t xpu.Thread, out []b) { out[t.GlobalX()].X = 1 }
