//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The library calls back into Go through C function pointers, and purego
// can make only about 2,000 of them per process and never frees them. So
// each kind of callback is made once, at load, and finds what it reports
// to through its first userdata pointer: the id of a pending result or of
// a device.

var callbacks struct {
	adapter, device, mapped, workDone, popErrorScope uintptr
	lost, uncaptured                                 uintptr
}

// result is what one asynchronous call reports.
type result struct {
	done    bool
	status  uint32
	handle  uintptr // the adapter or device requested
	errType uint32  // a popped error scope's error type
	message string
}

// pending holds the results of calls in flight, by id.
var pending struct {
	sync.Mutex
	byID map[uintptr]*result
	next uintptr
}

// expect registers a result for a call about to be made and returns its
// id, to pass as userdata1.
func expect() (uintptr, *result) {
	pending.Lock()
	defer pending.Unlock()
	if pending.byID == nil {
		pending.byID = make(map[uintptr]*result)
	}
	pending.next++
	r := &result{}
	pending.byID[pending.next] = r
	return pending.next, r
}

// forget drops a result once its call has been waited on.
func forget(id uintptr) {
	pending.Lock()
	delete(pending.byID, id)
	pending.Unlock()
}

func report(id uintptr, f func(r *result)) {
	pending.Lock()
	r := pending.byID[id]
	pending.Unlock()
	if r != nil {
		f(r)
		r.done = true
	}
}

func message(data unsafe.Pointer, n uintptr) string {
	return stringView{data: (*byte)(data), len: n}.String()
}

// sinks holds open devices by id, for the device-lost and uncaptured-error
// callbacks.
var sinks sync.Map // uintptr -> *api

var nextSink atomic.Uintptr

func makeCallbacks() error {
	callbacks.adapter = purego.NewCallback(func(status uint32, adapter uintptr, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		report(ud1, func(r *result) { r.status, r.handle, r.message = status, adapter, message(msg, msgLen) })
	})
	callbacks.device = purego.NewCallback(func(status uint32, device uintptr, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		report(ud1, func(r *result) { r.status, r.handle, r.message = status, device, message(msg, msgLen) })
	})
	callbacks.mapped = purego.NewCallback(func(status uint32, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		report(ud1, func(r *result) { r.status, r.message = status, message(msg, msgLen) })
	})
	callbacks.workDone = purego.NewCallback(func(status uint32, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		report(ud1, func(r *result) { r.status, r.message = status, message(msg, msgLen) })
	})
	callbacks.popErrorScope = purego.NewCallback(func(status, errType uint32, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		report(ud1, func(r *result) { r.status, r.errType, r.message = status, errType, message(msg, msgLen) })
	})
	callbacks.lost = purego.NewCallback(func(dev uintptr, reason uint32, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		if d, ok := sinks.Load(ud1); ok {
			d.(*api).lose(reason, message(msg, msgLen))
		}
	})
	callbacks.uncaptured = purego.NewCallback(func(dev uintptr, errType uint32, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		if d, ok := sinks.Load(ud1); ok {
			d.(*api).uncaptured(errType, message(msg, msgLen))
		}
	})
	return nil
}

// waitInfo returns the callback info of a call whose result is waited on
// with WaitAny.
func waitInfo(cb, id uintptr) callbackInfo {
	return callbackInfo{mode: callbackWaitAnyOnly, callback: cb, userdata1: id}
}
