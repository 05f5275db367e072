package devtools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Flags are the command-line flags of a headless Chromium with WebGPU.
var Flags = []string{
	"--headless",
	"--no-sandbox",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--enable-unsafe-webgpu",
}

// ChromiumEnv names the environment variable that gives the browser's
// path, instead of looking for chromium on PATH.
const ChromiumEnv = "XPU_CHROMIUM"

// Find returns the path of the Chromium to run: $XPU_CHROMIUM, or
// chromium (or chromium-browser) on PATH.
func Find() (string, error) {
	if p := os.Getenv(ChromiumEnv); p != "" {
		return exec.LookPath(p)
	}
	var errs []error
	for _, name := range []string{"chromium", "chromium-browser"} {
		p, err := exec.LookPath(name)
		if err == nil {
			return p, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

// Browser is a running Chromium that Launch started.
type Browser struct {
	cmd     *exec.Cmd
	c       *conn
	profile string
	exited  chan struct{}
	stderr  bytes.Buffer // guarded by logMu

	logMu sync.Mutex
	log   []string // console messages and exceptions of its pages
}

// Launch starts the Chromium at path, headless with WebGPU, on a fresh
// profile, and connects to it.
func Launch(ctx context.Context, path string) (*Browser, error) {
	profile, err := os.MkdirTemp("", "xpu-chromium-")
	if err != nil {
		return nil, err
	}
	b := &Browser{profile: profile, exited: make(chan struct{})}
	toBrowser, ours, err := os.Pipe() // the browser reads fd 3
	if err != nil {
		os.RemoveAll(profile)
		return nil, err
	}
	fromBrowser, theirs, err := os.Pipe() // the browser writes fd 4
	if err != nil {
		toBrowser.Close()
		ours.Close()
		os.RemoveAll(profile)
		return nil, err
	}
	args := append(append([]string{}, Flags...), "--remote-debugging-pipe", "--user-data-dir="+profile, "about:blank")
	b.cmd = exec.Command(path, args...)
	b.cmd.ExtraFiles = []*os.File{toBrowser, theirs}
	b.cmd.SysProcAttr = procAttr()
	b.cmd.Stderr = &lockedWriter{mu: &b.logMu, w: &b.stderr}
	err = b.cmd.Start()
	toBrowser.Close()
	theirs.Close()
	if err != nil {
		ours.Close()
		fromBrowser.Close()
		os.RemoveAll(profile)
		return nil, fmt.Errorf("devtools: starting %s: %w", path, err)
	}
	go func() {
		b.cmd.Wait()
		close(b.exited)
	}()
	b.c = newConn(fromBrowser, ours, b.event)
	var v struct {
		Product string `json:"product"`
	}
	if err := b.call(ctx, "", "Browser.getVersion", nil, &v); err != nil {
		return nil, errors.Join(err, b.Close())
	}
	return b, nil
}

// call sends a command, to a page's session when session is set, waits
// for its response and decodes its result into result, when not nil.
func (b *Browser) call(ctx context.Context, session, method string, params, result any) error {
	ch, err := b.c.send(session, method, params)
	if err != nil {
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: %w", method, errClosed)
		}
		if m.Error != nil {
			return fmt.Errorf("devtools: %s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(m.Result, result)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("devtools: %s: %w", method, ctx.Err())
	case <-b.exited:
		return fmt.Errorf("devtools: %s: the browser exited: %s", method, b.Stderr())
	}
}

// event records the console messages and exceptions of pages.
func (b *Browser) event(m message) {
	var line string
	switch m.Method {
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		parts := []string{"console." + p.Type + ":"}
		for _, a := range p.Args {
			if a.Value != nil {
				parts = append(parts, fmt.Sprint(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		line = strings.Join(parts, " ")
	case "Runtime.exceptionThrown":
		var p struct {
			Details struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		line = "exception: " + p.Details.Text + " " + p.Details.Exception.Description
	default:
		return
	}
	b.logMu.Lock()
	defer b.logMu.Unlock()
	if len(b.log) < 1000 {
		b.log = append(b.log, line)
	}
}

// Log returns the console messages and exceptions of the browser's pages
// so far.
func (b *Browser) Log() []string {
	b.logMu.Lock()
	defer b.logMu.Unlock()
	return append([]string(nil), b.log...)
}

// Stderr returns what the browser wrote to its standard error so far.
func (b *Browser) Stderr() string {
	b.logMu.Lock()
	defer b.logMu.Unlock()
	return b.stderr.String()
}

// Close asks the browser to close, ends its process when it does not
// within a few seconds, and removes its profile.
func (b *Browser) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.call(ctx, "", "Browser.close", nil, nil)
	select {
	case <-b.exited:
	case <-ctx.Done():
		b.cmd.Process.Kill()
		<-b.exited
	}
	b.c.w.Close()
	return os.RemoveAll(b.profile)
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w.Len() > 1<<20 {
		return len(p), nil
	}
	return l.w.Write(p)
}
