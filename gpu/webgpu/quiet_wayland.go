//go:build cgo && linux

package webgpu

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>

typedef void (*xpu_wl_log_func)(const char *, va_list);
typedef void (*xpu_wl_set_handler)(xpu_wl_log_func);

static void xpu_wl_drop(const char *fmt, va_list ap) { (void)fmt; (void)ap; }

// libwayland's own default handler.
static void xpu_wl_stderr(const char *fmt, va_list ap) { vfprintf(stderr, fmt, ap); }

// xpu_wl_quiet sets the client library's log handler: on, one that drops
// the messages; off, libwayland's default. The library stays loaded from
// the first call, so that the handler holds for wgpu-native's loading of
// it too. Calls are serialized by the caller.
static void xpu_wl_quiet(int on) {
	static xpu_wl_set_handler set;
	static int tried;
	if (!tried) {
		tried = 1;
		void *h = dlopen("libwayland-client.so.0", RTLD_LAZY | RTLD_LOCAL);
		if (h) {
			set = (xpu_wl_set_handler)dlsym(h, "wl_log_set_handler_client");
		}
	}
	if (set) {
		set(on ? xpu_wl_drop : xpu_wl_stderr);
	}
}
*/
import "C"

// waylandQuiet silences the Wayland client library's messages (on) or
// restores its default handler, which prints them to standard error. A
// system without the library has nothing to silence.
func waylandQuiet(on bool) {
	v := C.int(0)
	if on {
		v = 1
	}
	C.xpu_wl_quiet(v)
}
