package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// sentinels are the errors of errors.go that every runtime error wraps.
var sentinels = []error{
	gpu.ErrUnavailable, gpu.ErrNoCode, gpu.ErrMisaligned, gpu.ErrScalarTwin, gpu.ErrWaveWidth,
	gpu.ErrBlock, gpu.ErrDeadline, gpu.ErrBufferLen, gpu.ErrArgs, gpu.ErrForeignBuffer,
	gpu.ErrReleased, gpu.ErrGrid, gpu.ErrLimits, gpu.ErrCompile, gpu.ErrType, gpu.ErrSize,
	gpu.ErrClosed, gpu.ErrFault, gpu.ErrCapture,
}

// callAll calls every exported method of recv's type on recv with zero
// arguments (nil pointers, slices, funcs and contexts, zero values),
// Close and Release last, and returns, by method, the error each
// returned or the panic it raised.
func callAll(recv reflect.Value) map[string]error {
	typ := recv.Type()
	var names []string
	for i := range typ.NumMethod() {
		names = append(names, typ.Method(i).Name)
	}
	last := func(n string) bool { return n == "Close" || n == "Release" }
	slices.SortStableFunc(names, func(a, b string) int {
		switch {
		case last(a) && !last(b):
			return 1
		case last(b) && !last(a):
			return -1
		}
		return 0
	})
	errType := reflect.TypeFor[error]()
	out := make(map[string]error)
	for _, name := range names {
		m := recv.MethodByName(name)
		mt := m.Type()
		args := make([]reflect.Value, mt.NumIn())
		for i := range args {
			args[i] = reflect.Zero(mt.In(i))
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					out[name] = fmt.Errorf("panic: %v", r)
				}
			}()
			var res []reflect.Value
			if mt.IsVariadic() {
				res = m.CallSlice(args)
			} else {
				res = m.Call(args)
			}
			if n := len(res); n > 0 && mt.Out(n-1) == errType && !res[n-1].IsNil() {
				out[name] = res[n-1].Interface().(error)
			} else {
				out[name] = nil
			}
		}()
	}
	return out
}

// TestNilReceivers calls every exported method of Device, Stream,
// Buffer, Kernel and Template on nil and zero values, and the functions that take
// a device with a nil or zero one: none may panic, and each error must
// wrap ErrArgs (ErrNoCode for a kernel), the runtime's word for a call
// it cannot make sense of. The method sets are read by reflection, so
// that a method added later is called too.
func TestNilReceivers(t *testing.T) {
	for _, recv := range []reflect.Value{
		reflect.ValueOf((*gpu.Device)(nil)), reflect.ValueOf(&gpu.Device{}),
		reflect.ValueOf((*gpu.Stream)(nil)), reflect.ValueOf(&gpu.Stream{}),
		reflect.ValueOf((*gpu.Buffer[float32])(nil)), reflect.ValueOf(&gpu.Buffer[float32]{}),
		reflect.ValueOf((*gpu.Kernel)(nil)), reflect.ValueOf(&gpu.Kernel{}),
		reflect.ValueOf((*gpu.Template)(nil)), reflect.ValueOf(&gpu.Template{}),
	} {
		what := fmt.Sprintf("%s (nil %v)", recv.Type(), recv.IsNil())
		want := gpu.ErrArgs
		if recv.Type() == reflect.TypeFor[*gpu.Kernel]() {
			want = gpu.ErrNoCode
		}
		for name, err := range callAll(recv) {
			if err != nil && !errors.Is(err, want) {
				t.Errorf("%s.%s: %v, want an error wrapping %v", what, name, err, want)
			}
		}
	}
	for _, d := range []*gpu.Device{nil, {}} {
		if _, err := gpu.NewBuffer[float32](d, 1); !errors.Is(err, gpu.ErrArgs) {
			t.Errorf("NewBuffer on %#v: %v, want ErrArgs", d, err)
		}
		if _, err := gpu.Upload(d, []float32{1}); !errors.Is(err, gpu.ErrArgs) {
			t.Errorf("Upload on %#v: %v, want ErrArgs", d, err)
		}
	}
	var s *gpu.Stream
	if _, err := s.Time(nil); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("Time on a nil stream: %v, want ErrArgs", err)
	}
}

// TestNilArguments calls every exported method of a live device, its
// stream and a buffer with zero arguments (a nil kernel, context, func
// or slice, an empty grid): none may panic, and each error must wrap one
// of the runtime's sentinels.
func TestNilArguments(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		// The nil arguments named, each with the error it must give.
		y, x := newBuf[float32](t, d, 64), newBuf[float32](t, d, 64)
		st := d.Stream()
		var nilContext context.Context // a caller's mistake, the case under test
		for _, c := range []struct {
			name string
			err  error
			want error
		}{
			{"nil context", st.LaunchContext(nilContext, saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(1), uint32(64)), gpu.ErrArgs},
			{"nil func", func() error { _, err := st.Time(nil); return err }(), gpu.ErrArgs},
			{"nil buffer", st.Launch(saxpyKernel, xpu.Dim3{X: 1}, y, (*gpu.Buffer[float32])(nil), float32(1), uint32(64)), gpu.ErrArgs},
			{"untyped nil buffer", st.Launch(saxpyKernel, xpu.Dim3{X: 1}, y, nil, float32(1), uint32(64)), gpu.ErrArgs},
			{"nil scalar", st.Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, nil, uint32(64)), gpu.ErrArgs},
			{"nil kernel", st.Launch(nil, xpu.Dim3{X: 1}), gpu.ErrNoCode},
			{"nil destination", y.Read(nil), gpu.ErrSize},
			{"nil source", y.Write(nil), gpu.ErrSize},
		} {
			if !errors.Is(c.err, c.want) {
				t.Errorf("%s: %v, want an error wrapping %v", c.name, c.err, c.want)
			}
		}
		b := newBuf[float32](t, d, 64)
		s, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		for _, recv := range []reflect.Value{reflect.ValueOf(b), reflect.ValueOf(s), reflect.ValueOf(d.Stream()), reflect.ValueOf(d)} {
			for name, err := range callAll(recv) {
				if err != nil && !slices.ContainsFunc(sentinels, func(s error) bool { return errors.Is(err, s) }) {
					t.Errorf("%s.%s: %v, want an error wrapping a sentinel of gpu", recv.Type(), name, err)
				}
			}
		}
	})
}
