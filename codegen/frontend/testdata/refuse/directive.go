package refuse

import "github.com/goxpu/xpu"

type C2 struct {
	Tile int
	On   bool
}

const Big = 1 << 20

// Directive lines cannot carry comments, so their expectations sit on the
// line above: ERROR +1:col "pattern".

// ERROR +2:1 "[xpu-directive] //xpu:kernel needs block"
//
//xpu:kernel
func NoBlock(t xpu.Thread) {}

// ERROR +2:20 "[xpu-directive] BadBlock: block size x: x is not a constant"
//
//xpu:kernel block=x
func BadBlock(t xpu.Thread) {}

// ERROR +2:14 "[xpu-directive] block of 2048 work-items"
//
//xpu:kernel block=2048
func BigBlock(t xpu.Thread) {}

// ERROR +2:23 "[xpu-directive] wave width"
//
//xpu:kernel block=64 wave=3
func BadWave(t xpu.Thread) {}

// ERROR +2:23 "[xpu-directive] unknown //xpu:kernel argument"
//
//xpu:kernel block=64 size=3
func BadKey(t xpu.Thread) {}

// ERROR +3:1 "[xpu-directive] unknown directive //xpu:frob"
//
//xpu:kernel block=64
//xpu:frob
func Frob(t xpu.Thread) {}

// ERROR +8:21 "[xpu-directive] instance B: want Field: value"
// ERROR +8:27 "[xpu-directive] instance C: field Tile"
// ERROR +8:18 "[xpu-directive] instance D: literal type C1"
// ERROR +8:16 "[xpu-directive] instance name \"e\""
// ERROR +8:16 "[xpu-requires] requires c.Tile/0 > 1: division by zero"
//
//xpu:kernel block=64
//xpu:instance A C2{Tile: 4}
//xpu:instance B C2{Nope: 4}
//xpu:instance C C2{Tile: 1.5}
//xpu:instance D C1{N: 1}
//xpu:instance e C2{}
//xpu:requires c.Tile/0 > 1
func Tmpl(t xpu.Thread, c C2, y []float32) {}

// ERROR +4:16 "[xpu-requires] requires c.Tile + 1: the clause is 1048577, not a boolean"
//
//xpu:kernel block=64
//xpu:instance F C2{Tile: Big, On: true}
//xpu:requires c.Tile + 1
func NotBool(t xpu.Thread, c C2, y []float32) {}

// NoInstances takes a struct as if it were a uniform: without instances
// it is no template.
//
//xpu:kernel block=64
func NoInstances(t xpu.Thread, c C2) {} // ERROR "[xpu-struct-uniform] kernel NoInstances takes the struct c by value, but a struct parameter is a template's comptime parameter, not a uniform"

// ERROR +3:16 "[xpu-directive] //xpu:instance on Plain"
//
//xpu:kernel block=64
//xpu:instance P C2{}
func Plain(t xpu.Thread) {}

// ERROR +2:23 "[xpu-directive] len(q): q is no buffer parameter"
//
//xpu:kernel block=64 len(q)=n
func LenNoBuffer(t xpu.Thread, y []float32, n uint32) {}

// ERROR +2:23 "[xpu-directive] len(y)=a: a is no uint32 or int32 scalar"
//
//xpu:kernel block=64 len(y)=a
func LenFloatBound(t xpu.Thread, y []float32, a float32) {}

// ERROR +2:32 "[xpu-directive] len(y) is bounded twice"
//
//xpu:kernel block=64 len(y)=n len(y)=n
func LenTwice(t xpu.Thread, y []float32, n uint32) {}

// ERROR +2:23 "[xpu-directive] length bound \"len(y+1)=n\""
//
//xpu:kernel block=64 len(y+1)=n
func LenMalformed(t xpu.Thread, y []float32, n uint32) {}

// ERROR +2:23 "[xpu-directive] len(y)=n*q: q is no uint32 or int32 scalar parameter"
//
//xpu:kernel block=64 len(y)=n*q
func LenProductBuffer(t xpu.Thread, y, q []float32, n uint32) {}

// ERROR +2:23 "[xpu-directive] len(y)=m*a: a is no uint32 or int32 scalar parameter"
//
//xpu:kernel block=64 len(y)=m*a
func LenProductFloat(t xpu.Thread, y []float32, m uint32, a float32) {}

// ERROR +2:23 "[xpu-directive] len(y)=m*z: z is no uint32 or int32 scalar parameter"
//
//xpu:kernel block=64 len(y)=m*z
func LenProductUnknown(t xpu.Thread, y []float32, m, k uint32) {}

// ERROR +2:23 "[xpu-directive] length bound \"len(y)=m+k\""
//
//xpu:kernel block=64 len(y)=m+k
func LenSum(t xpu.Thread, y []float32, m, k uint32) {}

// ERROR +2:23 "[xpu-directive] length bound \"len(y)=m*\""
//
//xpu:kernel block=64 len(y)=m*
func LenProductOpen(t xpu.Thread, y []float32, m uint32) {}

// ERROR +2:23 "[xpu-directive] length bound \"len(y)=m**k\""
//
//xpu:kernel block=64 len(y)=m**k
func LenProductDoubled(t xpu.Thread, y []float32, m, k uint32) {}

type Lanes struct{ W, B int32 }

// A member whose expression gives no wave width or block is refused by
// name at the expression; the others compile, and a requires clause keeps
// a member out before its shape is evaluated.
//
// ERROR +6:29 "[xpu-directive] Odd: wave width c.W is 3, not a power of two from 4 to 64"
// ERROR +5:29 "[xpu-directive] Huge: wave width c.W is 128"
// ERROR +4:20 "[xpu-directive] Empty: block size c.B is 0"
// ERROR +3:1 "[xpu-directive] Big: block 2048x1x1 exceeds 1024 work-items"
// ERROR +2:29 "[xpu-directive] Neg: wave width c.W is -4, not a power"
//
//xpu:kernel block=c.B wave=c.W
//xpu:instance Fine Lanes{W: 16, B: 40}
//xpu:instance Odd Lanes{W: 3, B: 40}
//xpu:instance Huge Lanes{W: 128, B: 40}
//xpu:instance Empty Lanes{W: 4, B: 0}
//xpu:instance Big Lanes{W: 4, B: 2048}
//xpu:instance Neg Lanes{W: -4, B: 40}
//xpu:instance Kept Lanes{W: 5, B: 40}
//xpu:requires c.W != 5
func Shaped(t xpu.Thread, c Lanes, y []float32) {}

// ERROR +2:28 "[xpu-directive] Unknown: wave width c.Nope: c.Nope is not a constant"
//
//xpu:kernel block=64 wave=c.Nope
//xpu:instance Unknown Lanes{W: 4}
func ShapedUnknown(t xpu.Thread, c Lanes, y []float32) {}
