// Package namesclash declares names that its kernels' handles and
// launchers need: the generation is refused by name.
package namesclash

import "github.com/goxpu/xpu"

// Foo's handle is FooKernel, a kernel of its own.
//
//xpu:kernel block=64
func Foo(t xpu.Thread, out []uint32) { out[t.GlobalX()] = 1 }

//xpu:kernel block=64
func FooKernel(t xpu.Thread, out []uint32) { out[t.GlobalX()] = 2 }

// LaunchBaz is Baz's launcher.
const LaunchBaz = 3

//xpu:kernel block=64
func Baz(t xpu.Thread, out []uint32) { out[t.GlobalX()] = LaunchBaz }

// The handle of LaunchQux is the launcher of QuxKernel: LaunchQuxKernel.
//
//xpu:kernel block=64
func LaunchQux(t xpu.Thread, out []uint32) { out[t.GlobalX()] = 4 }

//xpu:kernel block=64
func QuxKernel(t xpu.Thread, out []uint32) { out[t.GlobalX()] = 5 }
