package gpu

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// backendOrder is the order in which Open tries the backends.
var backendOrder = []schema.Backend{schema.BackendCUDA, schema.BackendHIP, schema.BackendWebGPU, schema.BackendCPU}

// openers holds the backends compiled in, by name. Each backend's file in
// this package registers its opener from an init function.
var openers struct {
	sync.Mutex
	byName map[schema.Backend]driver.Opener
}

// registerBackend makes a backend available to Open under name. It is
// called from init functions of this package, one file per backend.
func registerBackend(name schema.Backend, open driver.Opener) {
	openers.Lock()
	defer openers.Unlock()
	if openers.byName == nil {
		openers.byName = make(map[schema.Backend]driver.Opener)
	}
	openers.byName[name] = open
}

// Backends returns the compiled-in backends, in the order Open tries them.
func Backends() []schema.Backend {
	openers.Lock()
	defer openers.Unlock()
	var known, extra []schema.Backend
	for _, n := range backendOrder {
		if openers.byName[n] != nil {
			known = append(known, n)
		}
	}
	for n := range openers.byName {
		if !slices.Contains(backendOrder, n) {
			extra = append(extra, n)
		}
	}
	slices.Sort(extra)
	return append(known, extra...)
}

// Open opens the first backend with a device, in the order cuda, hip,
// webgpu, cpu (those compiled in). When the environment variable
// XPU_BACKEND names a backend, Open opens that one only. When no backend
// has a device, the error wraps [ErrUnavailable].
func Open() (*Device, error) {
	if name := os.Getenv("XPU_BACKEND"); name != "" {
		return OpenBackend(schema.Backend(name))
	}
	names := Backends()
	if len(names) == 0 {
		return nil, fmt.Errorf("gpu: no backend compiled in: %w", ErrUnavailable)
	}
	var errs []error
	for _, name := range names {
		d, err := OpenBackend(name)
		if err == nil {
			return d, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// OpenBackend opens the first device of the backend name. A backend that
// is not compiled in, or has no device here, gives an error wrapping
// [ErrUnavailable].
func OpenBackend(name schema.Backend) (*Device, error) {
	openers.Lock()
	open := openers.byName[name]
	openers.Unlock()
	if open == nil {
		return nil, fmt.Errorf("gpu: backend %q is not compiled in (have %v): %w", name, Backends(), ErrUnavailable)
	}
	drv, err := open()
	if err != nil {
		return nil, fmt.Errorf("gpu: backend %s: %w", name, err)
	}
	return recordFromEnv(newDevice(name, drv))
}
