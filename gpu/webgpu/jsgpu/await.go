//go:build js

package jsgpu

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/driver"
)

// settled is the outcome of a promise.
type settled struct {
	v   js.Value
	err error
}

// await blocks the calling goroutine until p settles and returns its
// value, or its rejection as an error. The callbacks only send on a
// buffered channel: they never block the event loop. await must not be
// called from inside a js.FuncOf callback.
func await(p js.Value) (js.Value, error) {
	return awaitContext(context.Background(), p)
}

// awaitContext is await that gives up when ctx is done first, with an
// error wrapping driver.ErrTimeout. The promise settles through relay, in
// JavaScript, which calls back into Go only while the wait is on: a
// promise that settles after a timeout, even after the Go program has
// exited, calls nothing.
func awaitContext(ctx context.Context, p js.Value) (js.Value, error) {
	ch := make(chan settled, 1)
	resolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{v: arg(args)}
		return nil
	})
	reject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{err: jsError(arg(args))}
		return nil
	})
	defer resolve.Release()
	defer reject.Release()
	waiter := js.Global().Get("Object").New()
	waiter.Set("resolve", resolve)
	waiter.Set("reject", reject)
	relay().Invoke(p, waiter)
	select {
	case s := <-ch:
		return s.v, s.err
	case <-ctx.Done():
		waiter.Set("off", true)
		return js.Undefined(), fmt.Errorf("%w (%w)", driver.ErrTimeout, context.Cause(ctx))
	}
}

// relay returns a JavaScript function of a promise and a waiter that
// hands the promise's outcome to the waiter's resolve or reject unless
// the waiter is off.
var relay = sync.OnceValue(func() js.Value {
	return js.Global().Get("Function").New("p", "w",
		"p.then(v => { if (!w.off) w.resolve(v); }, e => { if (!w.off) w.reject(e); });")
})

// arg returns the first callback argument, or undefined.
func arg(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsError turns a thrown or rejected JS value into a Go error.
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			return errors.New(m.String())
		}
	}
	return errors.New(v.String())
}

// call calls method of v and turns a JS exception into an error.
func call(v js.Value, method string, args ...any) (r js.Value, err error) {
	defer func() {
		if e := recover(); e != nil {
			if je, ok := e.(js.Error); ok {
				err = jsError(je.Value)
				return
			}
			err = errors.New(method + ": " + errorString(e))
		}
	}()
	return v.Call(method, args...), nil
}

// errorString spells a recovered value.
func errorString(e any) string {
	if err, ok := e.(error); ok {
		return err.Error()
	}
	if s, ok := e.(string); ok {
		return s
	}
	return "unknown panic"
}
