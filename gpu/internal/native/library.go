package native

// This file holds the calls of a native GPU library that the shared
// driver makes, as its driver binds them by symbol, and the cache of the
// libraries a driver has opened.

import (
	"sync"
	"unsafe"
)

// Fn is a call of a library: Name, its symbol, which the errors of the
// call name, and Call, the function bound to it.
type Fn[F any] struct {
	Name string
	Call F
}

// Library is the calls both libraries give alike (HIP's mirror CUDA's
// driver API): devices, streams, memory, modules, launches and events.
// Handles and device pointers are uintptr; a device is an int32; a
// status is a uint32, 0 for success.
type Library struct {
	// Prefix opens the driver's errors ("cuda", "hip").
	Prefix string
	// Check returns nil for status 0, else an error naming call and the
	// library's words for rc, wrapping driver.ErrLost where rc is an
	// error after which the device runs nothing again.
	Check func(call string, rc uint32) error
	// NotReady is the status of a query of a stream that has work left.
	NotReady uint32
	// The library's words in errors: Module, for a loaded artifact
	// ("module"); Groups, for a launch's groups ("blocks"); Registers,
	// for the unit of a kernel's register count ("registers a thread").
	Module, Groups, Registers string

	Init            Fn[func(flags uint32) uint32]
	DeviceGetCount  Fn[func(n unsafe.Pointer) uint32]
	DeviceGet       Fn[func(dev unsafe.Pointer, ordinal int32) uint32]
	DeviceGetName   Fn[func(name unsafe.Pointer, n int32, dev int32) uint32]
	DeviceAttribute Fn[func(v unsafe.Pointer, attr int32, dev int32) uint32]
	DeviceTotalMem  Fn[func(bytes unsafe.Pointer, dev int32) uint32]

	MemAlloc        Fn[func(ptr unsafe.Pointer, bytes uintptr) uint32]
	MemFree         Fn[func(ptr uintptr) uint32]
	MemcpyHtoD      Fn[func(dst uintptr, src unsafe.Pointer, n uintptr) uint32]
	MemcpyHtoDAsync Fn[func(dst uintptr, src unsafe.Pointer, n uintptr, stream uintptr) uint32]
	MemcpyDtoH      Fn[func(dst unsafe.Pointer, src uintptr, n uintptr) uint32]
	MemsetD8        Fn[func(dst uintptr, v uint8, n uintptr) uint32]
	MemsetD8Async   Fn[func(dst uintptr, v uint8, n uintptr, stream uintptr) uint32]

	ModuleUnload      Fn[func(mod uintptr) uint32]
	ModuleGetFunction Fn[func(fn unsafe.Pointer, mod uintptr, name string) uint32]
	FuncGetAttribute  Fn[func(v unsafe.Pointer, attr int32, fn uintptr) uint32]
	LaunchKernel      Fn[func(fn uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) uint32]

	StreamCreate      Fn[func(stream unsafe.Pointer, flags uint32) uint32]
	StreamDestroy     Fn[func(stream uintptr) uint32]
	StreamQuery       Fn[func(stream uintptr) uint32]
	StreamSynchronize Fn[func(stream uintptr) uint32]

	EventCreate      Fn[func(ev unsafe.Pointer, flags uint32) uint32]
	EventDestroy     Fn[func(ev uintptr) uint32]
	EventRecord      Fn[func(ev uintptr, stream uintptr) uint32]
	EventElapsedTime Fn[func(ms unsafe.Pointer, start, end uintptr) uint32]

	// Graphs (graph.go): a stream's launches captured into a graph, and
	// the graph instantiated and launched.
	StreamBeginCapture Fn[func(stream uintptr, mode uint32) uint32]
	StreamEndCapture   Fn[func(stream uintptr, graph unsafe.Pointer) uint32]
	GraphInstantiate   Fn[func(exec unsafe.Pointer, graph uintptr, flags uint64) uint32]
	GraphLaunch        Fn[func(exec uintptr, stream uintptr) uint32]
	GraphExecDestroy   Fn[func(exec uintptr) uint32]
	GraphDestroy       Fn[func(graph uintptr) uint32]
}

// The function attributes the driver reads, numbered alike by both
// libraries (CUfunction_attribute, hipFunction_attribute).
const (
	FuncMaxThreads  = 0
	FuncSharedBytes = 1
	FuncLocalBytes  = 3 // LOCAL_SIZE_BYTES: local memory, HIP's private segment
	FuncNumRegs     = 4
)

// Symbols binds the functions of an opened library by their symbols:
// Find gives a symbol's address and Register makes a Go function of it
// (purego's Dlsym and RegisterFunc, which the driver gives, so that this
// package binds nothing itself). The first symbol Find lacks is Err,
// from Missing, and leaves the rest unbound.
type Symbols struct {
	Find     func(symbol string) (uintptr, error)
	Register func(fptr any, addr uintptr)
	Missing  func(symbol string) error
	Err      error
}

// Bind binds the function fptr points to to symbol.
func (s *Symbols) Bind(fptr any, symbol string) {
	if s.Err != nil {
		return
	}
	addr, err := s.Find(symbol)
	if err != nil {
		s.Err = s.Missing(symbol)
		return
	}
	s.Register(fptr, addr)
}

// BindFn binds fn to symbol, which names it.
func BindFn[F any](s *Symbols, fn *Fn[F], symbol string) {
	fn.Name = symbol
	s.Bind(&fn.Call, symbol)
}

// Libraries are the libraries a driver has opened, by path, with the
// error of one that did not open; a library is never closed, since a
// device of it may be open. The zero Libraries is empty.
type Libraries[A any] struct {
	mu sync.Mutex
	m  map[string]opened[A]
}

type opened[A any] struct {
	a   A
	err error
}

// Load returns the library at path, opened by open the first time.
func (ls *Libraries[A]) Load(path string, open func(path string) (A, error)) (A, error) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if o, ok := ls.m[path]; ok {
		return o.a, o.err
	}
	a, err := open(path)
	if ls.m == nil {
		ls.m = map[string]opened[A]{}
	}
	ls.m[path] = opened[A]{a, err}
	return a, err
}
