//go:build (linux || darwin) && (amd64 || arm64)

package cpu

// This file loads host-tier code: a shared object opened through purego,
// without cgo, once per content per process, and the entry of a kernel
// in it.

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// hostLoads reports that this platform loads host-tier code.
const hostLoads = true

// loadable reports whether code is a shared object of the format this
// platform's loader opens: ELF on linux, 64-bit Mach-O on darwin. The
// selector names no system, so an artifact for another is told by its
// bytes, and the Go tier runs instead.
func loadable(code string) bool {
	if runtime.GOOS == "darwin" {
		return strings.HasPrefix(code, "\xcf\xfa\xed\xfe")
	}
	return strings.HasPrefix(code, "\x7fELF")
}

// objectFormat names the format loadable accepts.
const objectFormat = "an ELF shared object on linux, a Mach-O one on darwin"

// hostLibs are the shared objects this process has opened, by the hash of
// their bytes, and by the string that holds them (seen), so that the
// artifacts of one package, which share one Code, hash it once. They are
// never closed: a program of any device may still call into one.
var hostLibs struct {
	sync.Mutex
	m    map[[sha256.Size]byte]hostLib
	seen map[codeKey]seenCode
}

// codeKey names a string by its bytes' address and length; seenCode keeps
// the string, so that the address is not another string's while the key
// is in the map.
type codeKey struct {
	data *byte
	n    int
}

type seenCode struct {
	code string
	lib  hostLib
}

// hostLib is an open shared object and the file it was opened from.
type hostLib struct {
	handle uintptr
	path   string
}

// loadEntry returns the address of the entry of k that its host artifact
// a names, loading a's shared object first.
func (d *device) loadEntry(k *driver.Kernel, a *schema.Artifact) (uintptr, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrHostLoad, k.Name, fmt.Sprintf(format, args...))
	}
	sym := a.Symbol
	if sym == "" {
		sym = schema.HostSymbol(k.Name[strings.LastIndexByte(k.Name, '.')+1:])
	}
	lib, err := d.open(a.Code)
	if err != nil {
		return 0, fail("%v", err)
	}
	fn, err := purego.Dlsym(lib.handle, sym)
	if err != nil || fn == 0 {
		return 0, fail("no entry %s: %s", sym, loaderText(lib.path, err))
	}
	return fn, nil
}

// loaderText is the loader's message err about the file path, with the
// path where the message does not name it.
func loaderText(path string, err error) string {
	if err == nil {
		return "file " + path + ": the entry's address is 0"
	}
	if msg := err.Error(); strings.Contains(msg, path) {
		return msg
	}
	return "file " + path + ": " + err.Error()
}

// open returns the shared object whose bytes are code, writing it to the
// cache and opening it the first time.
func (d *device) open(code string) (hostLib, error) {
	key := codeKey{unsafe.StringData(code), len(code)}
	hostLibs.Lock()
	defer hostLibs.Unlock()
	if s, ok := hostLibs.seen[key]; ok {
		return s.lib, nil
	}
	if hostLibs.seen == nil {
		hostLibs.m, hostLibs.seen = map[[sha256.Size]byte]hostLib{}, map[codeKey]seenCode{}
	}
	sum := sha256.Sum256([]byte(code))
	if lib, ok := hostLibs.m[sum]; ok {
		hostLibs.seen[key] = seenCode{code, lib}
		return lib, nil
	}
	path, done, err := d.hostFile(code, sum)
	if err != nil {
		return hostLib{}, err
	}
	defer done()
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return hostLib{}, errors.New(loaderText(path, err))
	}
	lib := hostLib{h, path}
	hostLibs.m[sum] = lib
	hostLibs.seen[key] = seenCode{code, lib}
	return lib, nil
}
