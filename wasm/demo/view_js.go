//go:build js

package main

import (
	"encoding/json"
	"syscall/js"
	"time"
)

// view shows the report on the page and in globalThis.xpu.
type view struct {
	doc       js.Value
	lastYield time.Time
}

func newView() *view {
	return &view{doc: js.Global().Get("document"), lastYield: time.Now()}
}

// show renders r, and now and then lets the browser paint.
func (v *view) show(r *Report) {
	text, class := status(r)
	s := v.doc.Call("getElementById", "status")
	s.Set("textContent", text)
	s.Set("className", class)
	v.doc.Call("getElementById", "out").Set("innerHTML", renderHTML(r))
	if time.Since(v.lastYield) > 100*time.Millisecond {
		time.Sleep(time.Millisecond) // back to the event loop: the page repaints
		v.lastYield = time.Now()
	}
}

// done shows r and hands it, as JSON, to globalThis.xpu.
func (v *view) done(r *Report) {
	v.show(r)
	x := js.Global().Get("xpu")
	if x.Type() != js.TypeObject {
		x = js.ValueOf(map[string]any{})
		js.Global().Set("xpu", x)
	}
	data, err := json.Marshal(r)
	if err != nil {
		x.Set("error", err.Error())
	} else {
		x.Set("report", string(data))
	}
	x.Set("done", true)
}
