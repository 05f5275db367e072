package llvm

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sample builds a module that uses most of the tree: a vector loop with
// a phi, masked intrinsics, atomics, casts and shuffles.
func sample() *Module {
	m := &Module{SourceFilename: "sample", Triple: "x86_64-unknown-linux-gnu",
		DataLayout: "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"}
	m.Globals = append(m.Globals, &Global{Name: "table", Linkage: Private, Constant: true,
		T: &ArrayType{2, F32}, Init: &VectorConst{Elems: []Value{ConstF32(0.1), ConstF32(float32(math.Inf(-1)))}}, Align: 4})
	attrs := m.AddAttrGroup(AttrGroup{Attrs: []Attr{{Key: "nounwind"}, {Key: "target-cpu", Value: "x86-64-v3", Quoted: true}}})
	m.Declare("llvm.masked.load.v8f32.p0", Vec(8, F32), Ptr, I32, Vec(8, I1), Vec(8, F32))
	p := NewParam("p", Ptr, "noalias", "nocapture")
	n := NewParam("n", I32)
	f := m.NewFunc("kernel", I32, p, n)
	f.AttrGroup = attrs
	b := NewBuilder(f)
	slot := b.Alloca("slot", Vec(8, F32), 32)
	b.Store(&Zero{Vec(8, F32)}, slot, 32)
	loop, done := b.NewBlock("loop"), b.NewBlock("done")
	entry := b.Block
	b.Br(loop)
	b.SetBlock(loop)
	i, phi := b.Phi(I32, Incoming{ConstInt(I32, 0), entry})
	nv := b.Broadcast(8, n.Local)
	lanes := &VectorConst{Elems: []Value{ConstInt(I32, 0), ConstInt(I32, 1), ConstInt(I32, 2), ConstInt(I32, 3), ConstInt(I32, 4), ConstInt(I32, 5), ConstInt(I32, 6), ConstInt(I32, -1)}}
	mask := b.ICmp(ULT, lanes, nv)
	q := b.GEP(F32, p.Local, i)
	x := b.Call(Vec(8, F32), "llvm.masked.load.v8f32.p0", q, ConstInt(I32, 4), mask, &Zero{Vec(8, F32)})
	old := b.Load(Vec(8, F32), slot, 32)
	b.Store(b.Bin(FAdd, old, x, Flags{}), slot, 32)
	b.AtomicRMW(RMWFAdd, p.Local, ConstF32(float32(math.Copysign(0, -1))), Monotonic, 4)
	b.CmpXchg(p.Local, ConstInt(I32, 1), ConstInt(I32, 2), SeqCst, SeqCst, 4)
	b.AtomicLoad(I32, p.Local, Unordered, 4)
	b.Fence(SeqCst)
	next := b.Bin(Add, i, ConstInt(I32, 8), Flags{NUW: true, NSW: true})
	phi.In = append(phi.In, Incoming{next, loop})
	b.CondBr(b.ICmp(ULT, next, n.Local), loop, done)
	b.SetBlock(done)
	v := b.Load(Vec(8, F32), slot, 32)
	e := b.ExtractElement(v, ConstInt(I32, 0))
	s := b.Cast(FPToSI, b.Freeze(e), I32)
	b.Ret(b.Select(b.FCmp(UNO, e, e), ConstInt(I32, 0), s))
	return m
}

func TestGolden(t *testing.T) {
	text, err := Sprint(sample())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`target triple = "x86_64-unknown-linux-gnu"`,
		`@table = private constant <2 x float> <float 0x3FB99999A0000000, float 0xFFF0000000000000>, align 4`,
		`define i32 @kernel(ptr noalias nocapture %p, i32 %n) #0 {`,
		`  %slot = alloca <8 x float>, align 32`,
		`  %v = phi i32 [ 0, %entry ], [ %v.8, %loop ]`,
		`  %v.8 = add nuw nsw i32 %v, 8`,
		`  %old = atomicrmw fadd ptr %p, float 0x8000000000000000 monotonic, align 4`,
		`  %pair = cmpxchg ptr %p, i32 1, i32 2 seq_cst seq_cst, align 4`,
		`  %v.7 = load atomic i32, ptr %p unordered, align 4`,
		`  %c = icmp ult <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 -1>, %v.2`,
		`  %v.2 = shufflevector <8 x i32> %v.1, <8 x i32> poison, <8 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>`,
		`declare <8 x float> @llvm.masked.load.v8f32.p0(ptr, i32, <8 x i1>, <8 x float>)`,
		`attributes #0 = { nounwind "target-cpu"="x86-64-v3" }`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("printed module lacks the line\n%s\nin\n%s", want, text)
		}
	}
	again, _ := Sprint(sample())
	if again != text {
		t.Error("two prints of one tree differ")
	}
}

func TestMalformed(t *testing.T) {
	m := &Module{}
	f := m.NewFunc("f", Void)
	NewBuilder(f) // an entry block without a terminator
	if _, err := Sprint(m); err == nil || !strings.Contains(err.Error(), "no terminator") {
		t.Errorf("a block without a terminator printed (err %v)", err)
	}
}

func TestConstants(t *testing.T) {
	for _, c := range []struct {
		v    Value
		want string
	}{
		{ConstInt(I32, -1), "i32 -1"},
		{ConstInt(I32, math.MaxInt32), "i32 2147483647"},
		{&Int{I32, 0x80000000}, "i32 -2147483648"},
		{True, "i1 true"},
		{ConstF32(1), "float 0x3FF0000000000000"},
		{ConstF32(float32(math.NaN())), "float 0x7FF8000000000000"},
		{&Splat{2, ConstInt(I8, 3)}, "<2 x i8> <i8 3, i8 3>"},
		{&Zero{Vec(4, I32)}, "<4 x i32> zeroinitializer"},
		{&Poison{F32}, "float poison"},
	} {
		if got := typed(c.v); got != c.want {
			t.Errorf("constant printed %q, want %q", got, c.want)
		}
	}
}

// TestVerify runs LLVM's verifier on the sample module when opt-19 is on
// PATH; XPU_REQUIRE=llvm-host makes its absence a failure.
func TestVerify(t *testing.T) {
	text, err := Sprint(sample())
	if err != nil {
		t.Fatal(err)
	}
	verify(t, text)
}

// verify runs opt-19's verifier on text (TestVerify skips without it).
func verify(t *testing.T, text string) {
	t.Helper()
	opt, err := exec.LookPath("opt-19")
	if err != nil {
		if strings.Contains(os.Getenv("XPU_REQUIRE"), "llvm-host") {
			t.Fatal("opt-19 not found and XPU_REQUIRE names llvm-host")
		}
		t.Skip("opt-19 not on PATH")
	}
	path := filepath.Join(t.TempDir(), "m.ll")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(opt, "-passes=verify", "-disable-output", path).CombinedOutput()
	if err != nil {
		t.Fatalf("opt-19 -passes=verify: %v\n%s\n%s", err, out, text)
	}
}

// gpuSample builds a module of a GPU's kind: a kernel calling convention,
// a shared global, address-space casts, a stack in its own space and a
// scoped fence.
func gpuSample() *Module {
	m := &Module{SourceFilename: "gpu", Triple: "amdgcn-amd-amdhsa",
		DataLayout: "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"}
	t := &ArrayType{64, I32}
	sh := &Global{Name: "shared.s", Linkage: Internal, T: t, Init: &Poison{t}, Align: 16, Space: 3}
	m.Globals = append(m.Globals, sh)
	a := NewParam("a", I64)
	f := m.NewFunc("k", Void, a)
	f.CC = "amdgpu_kernel"
	b := NewBuilder(f)
	b.AllocaSpace = 5
	slot := b.Alloca("slot", I32, 4)
	g := b.Cast(AddrSpaceCast, b.Cast(IntToPtr, a.Local, PtrIn(1)), Ptr)
	s := b.Cast(AddrSpaceCast, sh.Ref(), Ptr)
	b.Store(ConstInt(I32, 1), slot, 4)
	b.Store(b.Load(I32, slot, 4), b.GEP(I32, s, ConstInt(I64, 3)), 4)
	b.ScopedFence(Release, "workgroup")
	b.Store(b.Load(I32, s, 4), g, 4)
	b.Ret(nil)
	return m
}

func TestGPUGolden(t *testing.T) {
	text, err := Sprint(gpuSample())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`@shared.s = internal addrspace(3) global [64 x i32] poison, align 16`,
		`define amdgpu_kernel void @k(i64 %a) {`,
		`  %slot = alloca i32, align 4, addrspace(5)`,
		`  %slot.1 = addrspacecast ptr addrspace(5) %slot to ptr`,
		`  %v = inttoptr i64 %a to ptr addrspace(1)`,
		`  %v.2 = addrspacecast ptr addrspace(3) @shared.s to ptr`,
		`  fence syncscope("workgroup") release`,
		`  ret void`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("printed module lacks the line\n%s\nin\n%s", want, text)
		}
	}
	verify(t, text)
}
