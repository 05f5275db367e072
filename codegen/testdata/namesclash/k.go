// Package namesclash declares names that the handles and launchers of its
// kernels and templates need: the generation is refused by name.
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

// Cfg is the comptime parameter of the templates below.
type Cfg struct{ F uint32 }

// ScaleTemplate is the name the handle of the template Scale needs.
var ScaleTemplate = 6

//xpu:kernel block=64
//xpu:instance Scale1 Cfg{F: 1}
func Scale(t xpu.Thread, c Cfg, out []uint32) { out[t.GlobalX()] = c.F }

// The handle of the template LaunchWide is the launcher of the kernel
// WideTemplate: LaunchWideTemplate.
//
//xpu:kernel block=64
//xpu:instance Wide1 Cfg{F: 1}
func LaunchWide(t xpu.Thread, c Cfg, out []uint32) { out[t.GlobalX()] = c.F }

//xpu:kernel block=64
func WideTemplate(t xpu.Thread, out []uint32) { out[t.GlobalX()] = 7 }

// A member named after its template: the template's launcher and the
// member's are both LaunchSelf.
//
//xpu:kernel block=64
//xpu:instance Self Cfg{F: 2}
func Self(t xpu.Thread, c Cfg, out []uint32) { out[t.GlobalX()] = c.F }
