package native

// This file counts the references to a device's loaded modules: one
// module per distinct code, shared by the programs of its kernels.

import "sync"

// Modules are a device's loaded modules by the hash of their code; the
// zero Modules is empty.
type Modules struct {
	mu sync.Mutex
	m  map[[32]byte]*module
}

type module struct {
	h    uintptr
	refs int
}

// Ref returns the handle of the module of key sum, loading it with load
// the first time, and takes a reference to it, which Unref drops.
func (ms *Modules) Ref(sum [32]byte, load func() (uintptr, error)) (uintptr, error) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if m := ms.m[sum]; m != nil {
		m.refs++
		return m.h, nil
	}
	h, err := load()
	if err != nil {
		return 0, err
	}
	if ms.m == nil {
		ms.m = map[[32]byte]*module{}
	}
	ms.m[sum] = &module{h: h, refs: 1}
	return h, nil
}

// Unref drops a reference to the module of key sum; after the last it
// forgets the module and returns its handle for the caller to unload.
func (ms *Modules) Unref(sum [32]byte) (h uintptr, last bool) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	m := ms.m[sum]
	if m == nil {
		return 0, false
	}
	if m.refs--; m.refs > 0 {
		return 0, false
	}
	delete(ms.m, sum)
	return m.h, true
}

// Drain forgets every module and returns their handles, for a device's
// Close to unload.
func (ms *Modules) Drain() []uintptr {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	var hs []uintptr
	for _, m := range ms.m {
		hs = append(hs, m.h)
	}
	ms.m = nil
	return hs
}
