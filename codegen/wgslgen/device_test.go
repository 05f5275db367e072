//go:build cgo

package wgslgen_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/wgslgen"
	"github.com/goxpu/xpu/schema"
)

// The tests in this file hand the generated WGSL to wgpu (wgpu-native
// 0.19 through cgo): every test kernel must be accepted as a shader
// module and a compute pipeline, and the kernels with a Go reference run
// on the device and are compared with xpu.Run on the same inputs.

var gpu struct {
	once   sync.Once
	device *wgpu.Device
	queue  *wgpu.Queue
	name   string
	err    error
}

// device opens the first wgpu adapter once. Without one the test is
// skipped with a loud message, or fails when XPU_REQUIRE names webgpu.
func device(t *testing.T) (*wgpu.Device, *wgpu.Queue) {
	t.Helper()
	gpu.once.Do(func() {
		wgpu.SetLogLevel(wgpu.LogLevelOff)
		inst := wgpu.CreateInstance(nil)
		a, err := inst.RequestAdapter(&wgpu.RequestAdapterOptions{})
		if err != nil {
			gpu.err = fmt.Errorf("no WebGPU adapter: %w", err)
			return
		}
		info := a.GetInfo()
		gpu.name = fmt.Sprintf("%s (%v)", info.Name, info.BackendType)
		gpu.device, gpu.err = a.RequestDevice(nil)
		if gpu.err == nil {
			gpu.queue = gpu.device.GetQueue()
		}
	})
	if gpu.err != nil {
		if slices.Contains(strings.Split(os.Getenv("XPU_REQUIRE"), ","), "webgpu") {
			t.Fatalf("XPU_REQUIRE=webgpu but %v", gpu.err)
		}
		t.Skipf("\n\n*** SKIPPED: %v: the generated WGSL was NOT checked by wgpu on this machine ***\n\n", gpu.err)
	}
	return gpu.device, gpu.queue
}

// declaresFault reports whether src declares the fault word, which the
// runtime binds after the uniform block.
func declaresFault(src string) bool {
	return strings.Contains(src, "var<storage, read_write> xpu_fault")
}

// pipeline compiles src for k with the layout the runtime uses: every
// buffer parameter bound explicitly, read-only storage for AccessRead,
// the uniform block (scalars and launch words, which every module reads)
// after the last buffer, then the fault word.
func pipeline(d *wgpu.Device, k *ir.Kernel, src string) (*wgpu.ComputePipeline, *wgpu.BindGroupLayout, error) {
	mod, err := d.CreateShaderModule(&wgpu.ShaderModuleDescriptor{Label: k.Name, WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: src}})
	if err != nil {
		return nil, nil, err
	}
	defer mod.Release()
	var entries []wgpu.BindGroupLayoutEntry
	for _, p := range k.Params {
		if p.Kind == ir.ScalarParam {
			continue
		}
		typ := wgpu.BufferBindingTypeStorage
		if p.Access == schema.AccessRead {
			typ = wgpu.BufferBindingTypeReadOnlyStorage
		}
		entries = append(entries, wgpu.BindGroupLayoutEntry{Binding: uint32(len(entries)), Visibility: wgpu.ShaderStageCompute, Buffer: wgpu.BufferBindingLayout{Type: typ}})
	}
	{
		entries = append(entries, wgpu.BindGroupLayoutEntry{Binding: uint32(len(entries)), Visibility: wgpu.ShaderStageCompute, Buffer: wgpu.BufferBindingLayout{Type: wgpu.BufferBindingTypeUniform}})
	}
	if declaresFault(src) {
		entries = append(entries, wgpu.BindGroupLayoutEntry{Binding: uint32(len(entries)), Visibility: wgpu.ShaderStageCompute, Buffer: wgpu.BufferBindingLayout{Type: wgpu.BufferBindingTypeStorage}})
	}
	bgl, err := d.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Entries: entries})
	if err != nil {
		return nil, nil, err
	}
	pl, err := d.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{BindGroupLayouts: []*wgpu.BindGroupLayout{bgl}})
	if err != nil {
		bgl.Release()
		return nil, nil, err
	}
	defer pl.Release()
	p, err := d.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{Layout: pl, Compute: wgpu.ProgrammableStageDescriptor{Module: mod, EntryPoint: "main"}})
	if err != nil {
		bgl.Release()
		return nil, nil, err
	}
	return p, bgl, nil
}

// TestWGPUAccepts creates a shader module and a compute pipeline from the
// WGSL of every test kernel.
func TestWGPUAccepts(t *testing.T) {
	d, _ := device(t)
	t.Logf("adapter: %s", gpu.name)
	for _, k := range allKernels() {
		t.Run(k.Name, func(t *testing.T) {
			src, err := wgslgen.Generate(k)
			if err != nil {
				t.Fatal(err)
			}
			p, bgl, err := pipeline(d, k, src)
			if err != nil {
				t.Fatalf("wgpu rejects the WGSL: %v\n%s", err, src)
			}
			p.Release()
			bgl.Release()
		})
	}
}

// TestDeviceMatchesReference runs each test kernel with a Go reference on
// the device and with xpu.Run on the same random inputs, and compares
// every buffer: integers bit for bit, floats within the kernel's ulps.
func TestDeviceMatchesReference(t *testing.T) {
	d, q := device(t)
	for _, tk := range testKernels {
		if tk.ref == nil {
			continue
		}
		t.Run(tk.name, func(t *testing.T) {
			k := tk.ir()
			src, err := wgslgen.Generate(k)
			if err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(3) {
				r := rand.New(rand.NewPCG(seed, 99))
				groups, args := tk.args(r)
				want := deepCopy(args)
				cfg := xpu.Config{Groups: xpu.Dim3{X: groups}, Block: xpu.Dim3{X: k.Block[0], Y: k.Block[1], Z: k.Block[2]}}
				if err := xpu.Run(cfg, tk.ref, want...); err != nil {
					t.Fatal(err)
				}
				got, err := dispatch(d, q, k, src, groups, args)
				if err != nil {
					t.Fatal(err)
				}
				for i, p := range k.Params {
					if p.Kind != ir.BufferParam || tk.skip[i] {
						continue
					}
					if msg := compare(want[i], got[i], tk.ulps); msg != "" {
						t.Fatalf("seed %d: buffer %s: %s", seed, p.Name, msg)
					}
				}
			}
		})
	}
}

// dispatch runs the kernel on the device with args (slices for buffers,
// scalars for uniforms) and returns the buffers read back, in parameter
// order (nil for scalars).
func dispatch(d *wgpu.Device, q *wgpu.Queue, k *ir.Kernel, src string, groups uint32, args []any) ([]any, error) {
	p, bgl, err := pipeline(d, k, src)
	if err != nil {
		return nil, err
	}
	defer p.Release()
	defer bgl.Release()
	var (
		bufs    []*wgpu.Buffer
		sizes   []uint64
		entries []wgpu.BindGroupEntry
		uniform []byte
	)
	defer func() {
		for _, b := range bufs {
			b.Release()
		}
	}()
	for i, prm := range k.Params {
		if prm.Kind == ir.ScalarParam {
			var b bytes.Buffer
			if err := binary.Write(&b, binary.LittleEndian, args[i]); err != nil {
				return nil, err
			}
			for len(uniform) < prm.Binding+4 {
				uniform = append(uniform, 0)
			}
			copy(uniform[prm.Binding:], b.Bytes())
			continue
		}
		var b bytes.Buffer
		if err := binary.Write(&b, binary.LittleEndian, args[i]); err != nil {
			return nil, err
		}
		data := b.Bytes()
		size := uint64(max(len(data), 4))
		buf, err := d.CreateBuffer(&wgpu.BufferDescriptor{Size: size, Usage: wgpu.BufferUsageStorage | wgpu.BufferUsageCopyDst | wgpu.BufferUsageCopySrc})
		if err != nil {
			return nil, err
		}
		bufs, sizes = append(bufs, buf), append(sizes, size)
		if len(data) > 0 {
			if err := q.WriteBuffer(buf, 0, data); err != nil {
				return nil, err
			}
		}
		entries = append(entries, wgpu.BindGroupEntry{Binding: uint32(len(entries)), Buffer: buf, Size: wgpu.WholeSize})
	}
	{
		// The launch words after the scalars: the grid, unfolded (the
		// kernels' own dispatches never exceed a device's axis).
		uniform = append(uniform, make([]byte, ir.UniformSize(k)-len(uniform))...)
		uniform = binary.LittleEndian.AppendUint32(uniform, groups)
		uniform = binary.LittleEndian.AppendUint32(uniform, 1)
		uniform = binary.LittleEndian.AppendUint32(uniform, 1)
		uniform = binary.LittleEndian.AppendUint32(uniform, 0)
		for len(uniform)%16 != 0 {
			uniform = append(uniform, 0)
		}
		ub, err := d.CreateBuffer(&wgpu.BufferDescriptor{Size: uint64(len(uniform)), Usage: wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst})
		if err != nil {
			return nil, err
		}
		defer ub.Release()
		if err := q.WriteBuffer(ub, 0, uniform); err != nil {
			return nil, err
		}
		entries = append(entries, wgpu.BindGroupEntry{Binding: uint32(len(entries)), Buffer: ub, Size: wgpu.WholeSize})
	}
	if declaresFault(src) {
		fb, err := d.CreateBuffer(&wgpu.BufferDescriptor{Size: 4, Usage: wgpu.BufferUsageStorage})
		if err != nil {
			return nil, err
		}
		defer fb.Release()
		entries = append(entries, wgpu.BindGroupEntry{Binding: uint32(len(entries)), Buffer: fb, Size: wgpu.WholeSize})
	}
	bg, err := d.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: bgl, Entries: entries})
	if err != nil {
		return nil, err
	}
	defer bg.Release()
	enc, err := d.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(p)
	pass.SetBindGroup(0, bg, nil)
	pass.DispatchWorkgroups(groups, 1, 1)
	pass.End()
	pass.Release()
	var staging []*wgpu.Buffer
	defer func() {
		for _, b := range staging {
			b.Release()
		}
	}()
	for i, b := range bufs {
		s, err := d.CreateBuffer(&wgpu.BufferDescriptor{Size: sizes[i], Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst})
		if err != nil {
			return nil, err
		}
		staging = append(staging, s)
		enc.CopyBufferToBuffer(b, 0, s, 0, sizes[i])
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		return nil, err
	}
	defer cmd.Release()
	q.Submit(cmd)

	out := make([]any, len(args))
	bi := 0
	for i, prm := range k.Params {
		if prm.Kind == ir.ScalarParam {
			continue
		}
		s := staging[bi]
		status := wgpu.BufferMapAsyncStatusUnknown
		if err := s.MapAsync(wgpu.MapModeRead, 0, sizes[bi], func(st wgpu.BufferMapAsyncStatus) { status = st }); err != nil {
			return nil, err
		}
		d.Poll(true, nil)
		if status != wgpu.BufferMapAsyncStatusSuccess {
			return nil, fmt.Errorf("mapping buffer %s: status %v", prm.Name, status)
		}
		data := bytes.Clone(s.GetMappedRange(0, uint(sizes[bi])))
		s.Unmap()
		v := reflect.New(reflect.TypeOf(args[i]))
		v.Elem().Set(reflect.MakeSlice(reflect.TypeOf(args[i]), reflect.ValueOf(args[i]).Len(), reflect.ValueOf(args[i]).Len()))
		if err := binary.Read(bytes.NewReader(data), binary.LittleEndian, v.Interface()); err != nil && reflect.ValueOf(args[i]).Len() > 0 {
			return nil, err
		}
		out[i] = v.Elem().Interface()
		bi++
	}
	return out, nil
}

// deepCopy copies the slices among args.
func deepCopy(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		v := reflect.ValueOf(a)
		if v.Kind() == reflect.Slice {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			out[i] = c.Interface()
		} else {
			out[i] = a
		}
	}
	return out
}

// words flattens a slice of 32-bit scalars or structs of them to their
// bits, marking the float32 ones.
func words(v reflect.Value, w []uint32, fl []bool) ([]uint32, []bool) {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			w, fl = words(v.Index(i), w, fl)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			w, fl = words(v.Field(i), w, fl)
		}
	case reflect.Float32:
		w, fl = append(w, math.Float32bits(float32(v.Float()))), append(fl, true)
	case reflect.Int32:
		w, fl = append(w, uint32(v.Int())), append(fl, false)
	case reflect.Uint32:
		w, fl = append(w, uint32(v.Uint())), append(fl, false)
	}
	return w, fl
}

// compare returns "" when got matches want, else the first difference.
func compare(want, got any, ulps uint32) string {
	ww, fl := words(reflect.ValueOf(want), nil, nil)
	gw, _ := words(reflect.ValueOf(got), nil, nil)
	if len(ww) != len(gw) {
		return fmt.Sprintf("%d words, want %d", len(gw), len(ww))
	}
	for i := range ww {
		if ww[i] == gw[i] {
			continue
		}
		if fl[i] && ulpDistance(ww[i], gw[i]) <= ulps {
			continue
		}
		if fl[i] {
			return fmt.Sprintf("word %d = %v (%#x), want %v (%#x)", i, math.Float32frombits(gw[i]), gw[i], math.Float32frombits(ww[i]), ww[i])
		}
		return fmt.Sprintf("word %d = %d (%#x), want %d (%#x)", i, int32(gw[i]), gw[i], int32(ww[i]), ww[i])
	}
	return ""
}

// ulpDistance is the number of float32 values between a and b (NaNs
// equal each other and nothing else).
func ulpDistance(a, b uint32) uint32 {
	fa, fb := math.Float32frombits(a), math.Float32frombits(b)
	if fa != fa || fb != fb {
		if fa != fa && fb != fb {
			return 0
		}
		return math.MaxUint32
	}
	ord := func(x uint32) int64 {
		if x&0x80000000 != 0 {
			return -int64(x & 0x7fffffff)
		}
		return int64(x)
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return uint32(min(d, math.MaxUint32))
}

// allKernels returns the IR of every test kernel, those without a
// reference included.
func allKernels() []*ir.Kernel {
	var ks []*ir.Kernel
	for _, tk := range testKernels {
		ks = append(ks, tk.ir())
	}
	return ks
}
