package refuse

import "github.com/goxpu/xpu"

// Generic kernels and device functions. The ERROR comments stand apart
// from the doc comments, which gofmt would reorder: each names the line
// of its directive below.

type GenWide interface{ int32 | float64 }

type GenTile struct{ N uint32 }

// ERROR +3:0 "[xpu-type-param] instance AnyI32: type parameter T of GenAny: constraint any admits every type"

//xpu:kernel block=64
//xpu:instance AnyI32 GenAny[int32]
func GenAny[T any](t xpu.Thread, y []T) {
}

// ERROR +3:0 "[xpu-type-param] instance WideI32: type parameter T of GenWideElem: constraint GenWide admits float64 (type float64 is 64-bit or platform-sized)"

//xpu:kernel block=64
//xpu:instance WideI32 GenWideElem[int32]
func GenWideElem[T GenWide](t xpu.Thread, y []T) {
}

// ERROR +8:27 "[xpu-type-param] instance GenU32: Gen[uint32]: uint32 does not satisfy int32 | float32"
// ERROR +8:27 "[xpu-type-param] instance GenF64: Gen[float64]: float64 does not satisfy"
// ERROR +8:27 "[xpu-type-param] instance GenBad: type argument nosuch: undefined: nosuch"
// ERROR +8:24 "[xpu-directive] instance GenNone instantiates Other, not the kernel Gen"
// ERROR +8:16 "[xpu-directive] instance GenPlain of the generic kernel Gen names no type arguments"
// ERROR +8:34 "[xpu-directive] instance GenLit: Gen has no comptime struct parameter"

//xpu:kernel block=64
//xpu:instance GenU32 Gen[uint32]
//xpu:instance GenF64 Gen[float64]
//xpu:instance GenBad Gen[nosuch]
//xpu:instance GenNone Other[int32]
//xpu:instance GenPlain GenTile{N: 1}
//xpu:instance GenLit Gen[int32] GenTile{N: 1}
//xpu:instance GenOK Gen[int32]
func Gen[T int32 | float32](t xpu.Thread, y []T) {
}

// ERROR +3:23 "[xpu-directive] instance NotGen: GenNotGeneric has no type parameters"

//xpu:kernel block=64
//xpu:instance NotGen GenNotGeneric[int32]
//xpu:instance NotGenC GenTile{N: 1}
func GenNotGeneric(t xpu.Thread, c GenTile, y []int32) {
}

// ERROR +3:16 "[xpu-directive] instance NoValue names no value of the comptime parameter c"

//xpu:kernel block=64
//xpu:instance NoValue GenTmpl[int32]
func GenTmpl[T int32](t xpu.Thread, c GenTile, y []T) {
}

// ERROR +2:1 "[xpu-directive] generic kernel GenNoInstance has no //xpu:instance lines"

//xpu:kernel block=64
func GenNoInstance[T int32](t xpu.Thread, y []T) {
}

type GenMethods interface {
	~int32
	Get() int32
}

// ERROR +3:31 "[xpu-type-param] instance GenM: type parameter T of GenMethod: constraint GenMethods has methods"

//xpu:kernel block=64
//xpu:instance GenM GenMethod[int32]
func GenMethod[T GenMethods](t xpu.Thread, y []T) {
}

func genTilde[T interface{ ~int32 }](x T) T { return x }

func genWider[T int32 | float64](x T) T { return x + 1 }

//xpu:kernel block=64
func GenCallsWider(t xpu.Thread, y []int32) {
	y[0] = genWider(y[0]) // ERROR "[xpu-type-param] call of genWider: type parameter T of genWider: constraint int32 | float64 admits float64"
	y[1] = genTilde(y[1])
}
