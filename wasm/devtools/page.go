package devtools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// Page is a tab of the browser, attached to as a session.
type Page struct {
	b       *Browser
	session string
}

// Viewport is the size of a new page, in CSS pixels.
var Viewport = struct{ Width, Height int }{1000, 800}

// NewPage opens url in a new tab, with its console recorded (see
// [Browser.Log]). Each of scripts runs in the page before its own.
func (b *Browser) NewPage(ctx context.Context, url string, scripts ...string) (*Page, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	if err != nil {
		return nil, err
	}
	p := &Page{b: b, session: attached.SessionID}
	for _, step := range []struct {
		method string
		params any
	}{
		{"Runtime.enable", nil},
		{"Page.enable", nil},
		{"Emulation.setDeviceMetricsOverride", p.metrics(Viewport.Height)},
	} {
		if err := b.call(ctx, p.session, step.method, step.params, nil); err != nil {
			return nil, err
		}
	}
	for _, src := range scripts {
		if err := b.call(ctx, p.session, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": src}, nil); err != nil {
			return nil, err
		}
	}
	if err := b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url}, nil); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Page) metrics(height int) map[string]any {
	return map[string]any{"width": Viewport.Width, "height": height, "deviceScaleFactor": 1, "mobile": false}
}

// Eval evaluates a JavaScript expression in the page, awaiting it when it
// is a promise, and decodes its value, which must be JSON, into v.
func (p *Page) Eval(ctx context.Context, expr string, v any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{
		"expression": expr, "returnByValue": true, "awaitPromise": true,
	}, &r)
	if err != nil {
		return err
	}
	if e := r.Exception; e != nil {
		return errors.New("devtools: " + e.Text + " " + e.Exception.Description)
	}
	if len(r.Result.Value) == 0 {
		return json.Unmarshal([]byte("null"), v)
	}
	return json.Unmarshal(r.Result.Value, v)
}

// Await evaluates expr in the page every 200 ms until its value is not
// null, and decodes that value into v. It rides out a few failed
// evaluations in a row, as while the page is still loading.
func (p *Page) Await(ctx context.Context, expr string, v any) error {
	for failed := 0; ; {
		var raw json.RawMessage
		err := p.Eval(ctx, expr, &raw)
		switch {
		case err != nil && (ctx.Err() != nil || failed == 25):
			return err
		case err != nil:
			failed++
		case len(raw) > 0 && string(raw) != "null":
			return json.Unmarshal(raw, v)
		default:
			failed = 0
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("devtools: waiting for %s: %w", expr, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Screenshot captures the whole page as PNG.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var height float64
	if err := p.Eval(ctx, "document.documentElement.scrollHeight", &height); err != nil {
		return nil, err
	}
	h := max(Viewport.Height, int(math.Ceil(height)))
	if err := p.b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride", p.metrics(h), nil); err != nil {
		return nil, err
	}
	var shot struct {
		Data string `json:"data"`
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(shot.Data)
}
