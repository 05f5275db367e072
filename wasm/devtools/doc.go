// Package devtools launches a headless Chromium and drives it over the
// DevTools protocol through a pipe (--remote-debugging-pipe: JSON messages
// ended by a NUL byte, on file descriptors 3 and 4), which needs no
// WebSocket and no port. It knows the few commands xpu's browser test
// and the browser benchmark (bench/browserbench) use: open a page, run
// scripts in it before its own, evaluate an expression, capture a
// screenshot. Only tests import it.
//
// The browser runs with WebGPU enabled (--enable-unsafe-webgpu) and a
// fresh, empty profile that is removed when it closes. Closing ends only
// the process that Launch started.
package devtools
