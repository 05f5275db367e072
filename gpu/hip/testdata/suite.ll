; The driver-contract suite's kernels (gpu/driver/drivertest) and a
; faulting division, by hand in LLVM IR for amdgcn-amd-amdhsa, with the
; kernel arguments of the HSACO calling contract (schema/hsaco.go): two
; u64 per buffer (address, bytes), the uniform block's address, the fault
; word's. The tests compile it with llc and link it with ld.lld for the
; device's processor and wave width; the fake HIP library runs C versions
; of these entries by name.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()

; index is workgroup.id.x * workgroup_size_x + workitem.id.x, the size
; read from the dispatch packet (offset 4, a u16).
define internal i64 @index() {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %dp = call ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
  %szp = getelementptr i8, ptr addrspace(4) %dp, i64 4
  %sz16 = load i16, ptr addrspace(4) %szp, align 4
  %sz = zext i16 %sz16 to i32
  %base = mul i32 %gid, %sz
  %i = add i32 %base, %tid
  %i64 = zext i32 %i to i64
  ret i64 %i64
}

; add: out[i] = in[i] + k for every i below in's length.
define amdgpu_kernel void @add(ptr addrspace(1) %out, i64 %out_bytes, ptr addrspace(1) %in, i64 %in_bytes, ptr addrspace(1) %unused, i64 %unused_bytes, ptr addrspace(1) %uniforms) {
  %i = call i64 @index()
  %n = lshr i64 %in_bytes, 2
  %ok = icmp ult i64 %i, %n
  br i1 %ok, label %body, label %done
body:
  %src = getelementptr i32, ptr addrspace(1) %in, i64 %i
  %x = load i32, ptr addrspace(1) %src, align 4
  %k = load i32, ptr addrspace(1) %uniforms, align 4
  %y = add i32 %x, %k
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %i
  store i32 %y, ptr addrspace(1) %dst, align 4
  br label %done
done:
  ret void
}

; spin: x = 1664525*x + 1013904223 from 12345, rounds*inner times;
; out[0] = x, out[1] = rounds.
define amdgpu_kernel void @spin(ptr addrspace(1) %out, i64 %out_bytes, ptr addrspace(1) %uniforms) {
entry:
  %rounds = load i32, ptr addrspace(1) %uniforms, align 4
  %ip = getelementptr i32, ptr addrspace(1) %uniforms, i64 1
  %inner = load i32, ptr addrspace(1) %ip, align 4
  br label %round
round:
  %r = phi i32 [ 0, %entry ], [ %r1, %next ]
  %x = phi i32 [ 12345, %entry ], [ %x2, %next ]
  %more = icmp ult i32 %r, %rounds
  br i1 %more, label %loop, label %end
loop:
  %j = phi i32 [ 0, %round ], [ %j1, %step ]
  %x1 = phi i32 [ %x, %round ], [ %xn, %step ]
  %in = icmp ult i32 %j, %inner
  br i1 %in, label %step, label %next
step:
  %m = mul i32 %x1, 1664525
  %xn = add i32 %m, 1013904223
  %j1 = add i32 %j, 1
  br label %loop
next:
  %x2 = phi i32 [ %x1, %loop ]
  %r1 = add i32 %r, 1
  br label %round
end:
  store i32 %x, ptr addrspace(1) %out, align 4
  %o1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %r, ptr addrspace(1) %o1, align 4
  ret void
}

; divide: out[i] = in[i] / d below in's length; where d is 0, out[i] = 0
; and the fault word gets FaultDivZero.
define amdgpu_kernel void @divide(ptr addrspace(1) %out, i64 %out_bytes, ptr addrspace(1) %in, i64 %in_bytes, ptr addrspace(1) %uniforms, ptr addrspace(1) %fault) {
  %i = call i64 @index()
  %n = lshr i64 %in_bytes, 2
  %ok = icmp ult i64 %i, %n
  br i1 %ok, label %body, label %done
body:
  %src = getelementptr i32, ptr addrspace(1) %in, i64 %i
  %x = load i32, ptr addrspace(1) %src, align 4
  %d = load i32, ptr addrspace(1) %uniforms, align 4
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %i
  %zero = icmp eq i32 %d, 0
  br i1 %zero, label %fail, label %div
fail:
  %old = atomicrmw or ptr addrspace(1) %fault, i32 1 syncscope("agent") monotonic, align 4
  store i32 0, ptr addrspace(1) %dst, align 4
  br label %done
div:
  %q = udiv i32 %x, %d
  store i32 %q, ptr addrspace(1) %dst, align 4
  br label %done
done:
  ret void
}
