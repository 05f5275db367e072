package llvmgen

// This file is the test harness: it loads the kernels of
// internal/hostkernels with the front end, lowers and compiles them with
// the sidecar, loads the shared object with purego and runs an entry
// through the host contract, as the CPU driver does.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

var kernels struct {
	once sync.Once
	m    *ir.Module
	err  error
}

// kernel returns the analyzed kernel name of internal/hostkernels.
func kernel(t *testing.T, name string) *ir.Kernel {
	t.Helper()
	kernels.once.Do(func() {
		kernels.m, kernels.err = frontend.Load("internal/hostkernels", frontend.Generated{})
	})
	if kernels.err != nil {
		t.Fatal(kernels.err)
	}
	for _, k := range kernels.m.Kernels {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no kernel %s in internal/hostkernels", name)
	return nil
}

// tools returns the sidecar, skipping the test when it is absent unless
// XPU_REQUIRE names llvm-host.
func tools(t *testing.T) *sidecar.Tools {
	t.Helper()
	tl, err := sidecar.Find(context.Background())
	if errors.Is(err, sidecar.ErrNotFound) && !strings.Contains(os.Getenv("XPU_REQUIRE"), "llvm-host") {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// compile lowers k for tgt and builds its shared object, returning the
// object's bytes and the printed IR.
func compile(t *testing.T, k *ir.Kernel, tgt Target) ([]byte, string) {
	t.Helper()
	tl := tools(t)
	m, err := Lower(k, tgt)
	if err != nil {
		t.Fatal(err)
	}
	text, err := llvm.Sprint(m)
	if err != nil {
		t.Fatal(err)
	}
	so, err := tl.SharedObject(context.Background(), []byte(text), sidecar.Target{Triple: tgt.Triple, CPU: tgt.CPU, Features: tgt.Features}, Libs...)
	if err != nil {
		t.Fatalf("%v\n%s", err, numbered(text))
	}
	return so, text
}

func numbered(text string) string {
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = fmt.Sprintf("%5d %s", i+1, lines[i])
	}
	return strings.Join(lines, "\n")
}

// entry is a loaded host entry.
type entry struct {
	k   *ir.Kernel
	sym uintptr
}

// load compiles k for tgt and loads its entry.
func load(t *testing.T, k *ir.Kernel, tgt Target) *entry {
	t.Helper()
	so, _ := compile(t, k, tgt)
	path := filepath.Join(t.TempDir(), k.Name+".so")
	if err := os.WriteFile(path, so, 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		t.Fatal(err)
	}
	sym, err := purego.Dlsym(h, schema.HostSymbol(k.Name))
	if err != nil {
		t.Fatal(err)
	}
	return &entry{k: k, sym: sym}
}

// result is what one worker's call returned.
type result struct {
	code  uint32
	fault schema.HostFault
}

// run launches e over groups with args (the kernel's parameters after
// the Thread), its blocks split among workers, each with a HostLaunch of
// its own; stop is the launch's Stop word.
func (e *entry) run(groups [3]uint32, args []any, workers int, stop *uint32) []result {
	k := e.k
	var uniforms []uint32
	var buffers []schema.HostBuffer
	// The entry sees addresses only: pin what they name, so that no Go
	// object it touches is on a stack that may move.
	var pin runtime.Pinner
	defer pin.Unpin()
	for i, p := range k.Params {
		a := reflect.ValueOf(args[i])
		switch p.Kind {
		case ir.BufferParam:
			hb := schema.HostBuffer{Bytes: uint64(a.Len()) * uint64(a.Type().Elem().Size())}
			if a.Len() > 0 {
				pin.Pin(a.Index(0).Addr().Interface())
				hb.Base = a.Pointer()
			}
			buffers = append(buffers, hb)
		case ir.ScalarParam:
			for len(uniforms) <= p.Binding/4 {
				uniforms = append(uniforms, 0)
			}
			var w uint32
			switch v := args[i].(type) {
			case uint32:
				w = v
			case int32:
				w = uint32(v)
			case float32:
				w = math.Float32bits(v)
			case bool:
				if v {
					w = 1
				}
			}
			uniforms[p.Binding/4] = w
		}
	}
	uniforms = append(uniforms, 0) // never empty
	buffers = append(buffers, schema.HostBuffer{})
	pin.Pin(&uniforms[0])
	pin.Pin(&buffers[0])
	pin.Pin(stop)
	n := uint64(groups[0]) * uint64(groups[1]) * uint64(groups[2])
	out := make([]result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var pin runtime.Pinner
			defer pin.Unpin()
			fault := new(schema.HostFault)
			pin.Pin(fault)
			l := &schema.HostLaunch{Groups: groups, Wave: 1,
				Uniforms: uintptr(unsafe.Pointer(&uniforms[0])), Buffers: uintptr(unsafe.Pointer(&buffers[0])),
				Stop: uintptr(unsafe.Pointer(stop)), Fault: uintptr(unsafe.Pointer(fault))}
			pin.Pin(l)
			first, last := n*uint64(w)/uint64(workers), n*uint64(w+1)/uint64(workers)
			r1, _, _ := purego.SyscallN(e.sym, uintptr(unsafe.Pointer(l)), uintptr(first), uintptr(last))
			out[w] = result{code: uint32(r1), fault: *fault}
		}()
	}
	wg.Wait()
	return out
}

// firstFault returns the first worker's nonzero result, or HostOK.
func firstFault(rs []result) result {
	for _, r := range rs {
		if r.code != schema.HostOK {
			return r
		}
	}
	return result{}
}

// clone deep-copies the slices of args.
func clone(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		v := reflect.ValueOf(a)
		if v.Kind() == reflect.Slice {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			out[i] = c.Interface()
			continue
		}
		out[i] = a
	}
	return out
}

// ulpDistance is the distance of two float32s in units in the last
// place (0 for equal bits, for two NaNs, and for +0 and -0).
func ulpDistance(a, b float32) uint64 {
	if a == b || a != a && b != b {
		return 0
	}
	key := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u&0x80000000 != 0 {
			return -(u & 0x7fffffff)
		}
		return u
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// diff compares want and got (slices of the same type) element by
// element, field by field: integers exactly, floats within tol.
func diff(want, got any, tol tolerance) string {
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	var bad []string
	var cmp func(path string, w, g reflect.Value)
	cmp = func(path string, w, g reflect.Value) {
		switch w.Kind() {
		case reflect.Struct:
			for i := range w.NumField() {
				cmp(path+"."+w.Type().Field(i).Name, w.Field(i), g.Field(i))
			}
		case reflect.Float32:
			a, b := float32(w.Float()), float32(g.Float())
			if !tol.ok(a, b) {
				bad = append(bad, fmt.Sprintf("%s: got %v (%#x), want %v (%#x)", path, b, math.Float32bits(b), a, math.Float32bits(a)))
			}
		default:
			if !w.Equal(g) {
				bad = append(bad, fmt.Sprintf("%s: got %v, want %v", path, g, w))
			}
		}
	}
	for i := range w.Len() {
		cmp(fmt.Sprintf("[%d]", i), w.Index(i), g.Index(i))
		if len(bad) >= 8 {
			break
		}
	}
	return strings.Join(bad, "\n")
}

// tolerance bounds a float32 result's distance from the reference's:
// ulps, or rel relative to the larger magnitude.
type tolerance struct {
	ulps uint64
	rel  float64
}

func (t tolerance) ok(want, got float32) bool {
	if ulpDistance(want, got) <= t.ulps {
		return true
	}
	if t.rel > 0 {
		m := math.Max(math.Abs(float64(want)), math.Abs(float64(got)))
		return math.Abs(float64(want)-float64(got)) <= t.rel*m
	}
	return false
}
