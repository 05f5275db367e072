package refuse

import "github.com/goxpu/xpu"

type GenWide interface{ int32 | float64 }

type GenTile struct{ N uint32 }

//xpu:kernel block=64
//xpu:instance AnyI32 GenAny[int32] // ERROR "[xpu-type-param] instance AnyI32: type parameter T of GenAny: constraint any admits every type"
func GenAny[T any](t xpu.Thread, y []T) {
}

//xpu:kernel block=64
//xpu:instance WideI32 GenWideElem[int32] // ERROR "[xpu-type-param] instance WideI32: type parameter T of GenWideElem: constraint refuse.GenWide admits float64 (type float64 is 64-bit or platform-sized)"
func GenWideElem[T GenWide](t xpu.Thread, y []T) {
}

//xpu:kernel block=64
//xpu:instance GenU32 Gen[uint32] // ERROR "[xpu-type-param] instance GenU32: Gen[uint32]: uint32 does not satisfy int32 | float32"
//xpu:instance GenF64 Gen[float64] // ERROR "[xpu-type-param] instance GenF64: Gen[float64]: float64 does not satisfy"
//xpu:instance GenBad Gen[nosuch] // ERROR "[xpu-type-param] instance GenBad: type argument nosuch: "
//xpu:instance GenNone Other[int32] // ERROR "[xpu-directive] instance GenNone instantiates Other, not the kernel Gen"
//xpu:instance GenPlain GenTile{N: 1} // ERROR "[xpu-directive] instance GenPlain of the generic kernel Gen names no type arguments"
//xpu:instance GenLit Gen[int32] GenTile{N: 1} // ERROR "[xpu-directive] instance GenLit: Gen has no comptime struct parameter"
//xpu:instance GenOK Gen[int32]
func Gen[T int32 | float32](t xpu.Thread, y []T) {
}

//xpu:kernel block=64
//xpu:instance NotGen GenNotGeneric[int32] // ERROR "[xpu-directive] instance NotGen: GenNotGeneric has no type parameters"
//xpu:instance NotGenC GenTile{N: 1}
func GenNotGeneric(t xpu.Thread, c GenTile, y []int32) {
}

//xpu:kernel block=64
//xpu:instance NoValue GenTmpl[int32] // ERROR "[xpu-directive] instance NoValue names no value of the comptime parameter c"
func GenTmpl[T int32](t xpu.Thread, c GenTile, y []T) {
}

func genTilde[T interface{ ~int32 }](x T) T { return x }

func genWider[T int32 | int64](x T) T { return x + 1 }

//xpu:kernel block=64
func GenCallsWider(t xpu.Thread, y []int32) {
	y[0] = genWider(y[0]) // ERROR "[xpu-type-param] call of genWider: type parameter T of genWider: constraint int32 | int64 admits int64"
	y[1] = genTilde(y[1])
}
