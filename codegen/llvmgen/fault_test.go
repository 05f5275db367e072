package llvmgen

import (
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/llvmgen/internal/hostkernels"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

// TestFaults runs kernels that fault and checks the code and the place
// the entry reports, and that the reference fails too.
func TestFaults(t *testing.T) {
	const n = 3 * 64
	cases := []struct {
		name   string
		fn     any
		args   []any
		want   schema.HostFault
		groups uint32
	}{
		{"Fault", hostkernels.Fault, []any{make([]int32, n), make([]int32, n), int32(n - 10), int32(1), int32(0), uint32(n)},
			schema.HostFault{Code: schema.HostFaultIndex, Local: [3]uint32{10, 0, 0}, Object: 1, Index: n}, 3},
		{"Fault", hostkernels.Fault, []any{make([]int32, n), make([]int32, n), int32(n - 130), int32(1), int32(0), uint32(n)},
			schema.HostFault{Code: schema.HostFaultIndex, Group: [3]uint32{2, 0, 0}, Local: [3]uint32{2, 0, 0}, Object: 1, Index: n}, 3},
		{"Fault", hostkernels.Fault, []any{make([]int32, n), make([]int32, n), int32(-5), int32(1), int32(0), uint32(n)},
			schema.HostFault{Code: schema.HostFaultIndex, Object: 1, Index: math.MaxUint32 - 4}, 3},
		{"Fault", hostkernels.Fault, []any{make([]int32, n), make([]int32, n), int32(0), int32(-1), int32(0), uint32(n)},
			schema.HostFault{Code: schema.HostFaultDivZero, Local: [3]uint32{1, 0, 0}}, 3},
		{"Fault", hostkernels.Fault, []any{make([]int32, n), make([]int32, n), int32(0), int32(1), int32(-1), uint32(n)},
			schema.HostFault{Code: schema.HostFaultNegativeShift}, 3},
		{"FaultPrivate", hostkernels.FaultPrivate, []any{make([]uint32, n), uint32(0)},
			schema.HostFault{Code: schema.HostFaultIndex, Local: [3]uint32{4, 0, 0}, Object: math.MaxUint32, Index: 4}, 3},
		{"FaultShared", hostkernels.FaultShared, []any{make([]uint32, n), uint32(40)},
			schema.HostFault{Code: schema.HostFaultIndex, Local: [3]uint32{24, 0, 0}, Object: math.MaxUint32, Index: 64}, 3},
		{"FaultStrided", hostkernels.FaultStrided, []any{make([]uint32, n), make([]uint32, 3*n), uint32(10), uint32(0)},
			schema.HostFault{Code: schema.HostFaultIndex, Group: [3]uint32{2, 0, 0}, Local: [3]uint32{61, 0, 0}, Object: 1, Index: 3*n + 1}, 3},
		{"FaultStrided", hostkernels.FaultStrided, []any{make([]uint32, n), make([]uint32, 3*n), uint32(0), uint32(5)},
			schema.HostFault{Code: schema.HostFaultIndex, Local: [3]uint32{63, 0, 0}, Object: math.MaxUint32, Index: 257}, 3},
	}
	for _, tgt := range runnable() {
		entries := map[string]*entry{}
		for _, c := range cases {
			t.Run(tgt.ISA+"/"+c.name, func(t *testing.T) {
				e := entries[c.name]
				if e == nil {
					e = load(t, kernel(t, c.name), tgt)
					entries[c.name] = e
				}
				cfg := xpu.Config{Groups: xpu.Dim3{X: c.groups}, Block: xpu.Dim3{X: 64}}
				if err := xpu.Run(cfg, c.fn, clone(c.args)...); !errors.Is(err, xpu.ErrRun) {
					t.Errorf("reference: error %v, want a failed run", err)
				}
				var stop uint32
				got := firstFault(e.run([3]uint32{c.groups, 1, 1}, clone(c.args), 1, &stop))
				if got.code != c.want.Code || got.fault != c.want {
					t.Errorf("code %d, fault %+v; want code %d, fault %+v", got.code, got.fault, c.want.Code, c.want)
				}
			})
		}
	}
}

// TestStop checks that a set Stop word ends a launch: before its first
// block, and in the middle of a long loop.
func TestStop(t *testing.T) {
	for _, tgt := range runnable() {
		e := load(t, kernel(t, "Spin"), tgt)
		out := make([]uint32, 64*4)
		stop := uint32(1)
		if r := firstFault(e.run([3]uint32{4, 1, 1}, []any{out, uint32(1 << 30)}, 1, &stop)); r.code != schema.HostStopped {
			t.Errorf("%s: stop set: code %d, want HostStopped", tgt.ISA, r.code)
		}
		stop = 0
		go func() {
			time.Sleep(50 * time.Millisecond)
			atomic.StoreUint32(&stop, 1)
		}()
		start := time.Now()
		r := firstFault(e.run([3]uint32{4, 1, 1}, []any{out, uint32(math.MaxUint32)}, 2, &stop))
		if r.code != schema.HostStopped {
			t.Errorf("%s: stop set while running: code %d, want HostStopped", tgt.ISA, r.code)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: stopping took %v", tgt.ISA, d)
		}
	}
}

// TestRefusals checks that what the lowering does not carry is refused
// by name, wrapping ErrUnsupported.
func TestRefusals(t *testing.T) {
	// The front end inlines a device function that reaches a barrier
	// (ir.Flatten); a kernel that still calls one is refused.
	k := *kernel(t, "BarrierInFunc")
	f := &ir.Func{Name: "syncAll", GoName: "syncAll", Body: &ir.Block{Stmts: []ir.Stmt{&ir.Barrier{}}}, Barrier: true}
	k.Funcs = []*ir.Func{f}
	k.Body = &ir.Block{Stmts: []ir.Stmt{&ir.ExprStmt{X: &ir.Call{Func: f}}}}
	_, err := Lower(&k, Hosts()[0])
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "[xpu-llvm-lowering] kernel BarrierInFunc") || !strings.Contains(err.Error(), "reaches a barrier") {
		t.Errorf("error %v, want a refusal naming the call", err)
	}
}

// TestWideTarget compiles every case for every target, x86-64-v4 too
// where this machine cannot run it, and checks the entry's shape.
func TestWideTarget(t *testing.T) {
	for _, tgt := range Hosts() {
		for _, c := range hostCases[:3] {
			k := kernel(t, c.name)
			_, text := compile(t, k, tgt)
			head := "define i32 @" + schema.HostSymbol(k.Name) + "(ptr noalias nocapture readonly %launch, i64 %first, i64 %last) #0 {"
			if !strings.Contains(text, head) {
				t.Errorf("%s %s: no line %q", tgt.ISA, k.Name, head)
			}
			if !strings.Contains(text, `"prefer-vector-width"="`+itoa(tgt.VectorBits)+`"`) {
				t.Errorf("%s %s: no prefer-vector-width", tgt.ISA, k.Name)
			}
		}
	}
}

// TestDeterministic lowers each kernel twice: the printed modules are the
// same.
func TestDeterministic(t *testing.T) {
	for _, c := range hostCases {
		k := kernel(t, c.name)
		var texts [2]string
		for i := range texts {
			m, err := Lower(k, Hosts()[1])
			if err != nil {
				t.Fatal(err)
			}
			if texts[i], err = llvm.Sprint(m); err != nil {
				t.Fatal(err)
			}
		}
		if texts[0] != texts[1] {
			t.Errorf("%s: two lowerings print differently", c.name)
		}
	}
}

// TestInlinedUniformLoop checks that a device function called in uniform
// control flow with a varying argument keeps the loop its own analysis
// calls uniform (ir.Uniformity.Inlined): HelperLoop's column loop in
// strideSum loads consecutive columns with a vector load, where a body
// lowered all varying only gathers them lane by lane.
func TestInlinedUniformLoop(t *testing.T) {
	tgt := Hosts()[0]
	m, err := Lower(kernel(t, "HelperLoop"), tgt)
	if err != nil {
		t.Fatal(err)
	}
	text, err := llvm.Sprint(m)
	if err != nil {
		t.Fatal(err)
	}
	if load := "= load <" + itoa(tgt.Lanes) + " x float>, ptr %p"; !strings.Contains(text, load) {
		t.Errorf("strideSum's loop has no vector load (%q) of its columns:\n%s", load, numbered(text))
	}
}
