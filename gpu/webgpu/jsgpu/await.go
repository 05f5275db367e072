//go:build js

package jsgpu

import (
	"context"
	"errors"
	"fmt"
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
// error wrapping driver.ErrTimeout. The callbacks then stay alive until
// the promise settles, so that a late settling calls no released
// function.
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
	release := func() {
		resolve.Release()
		reject.Release()
	}
	p.Call("then", resolve, reject)
	select {
	case s := <-ch:
		release()
		return s.v, s.err
	case <-ctx.Done():
		go func() {
			<-ch
			release()
		}()
		return js.Undefined(), fmt.Errorf("%w (%w)", driver.ErrTimeout, context.Cause(ctx))
	}
}

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
