; add: out[i] = in[i] + k for every i below the length of in, with the
; kernel arguments of the HSACO contract (schema/hsaco.go): per buffer its
; address and its bytes, then the uniform block's address.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

define amdgpu_kernel void @add(ptr addrspace(1) %out, i64 %out_bytes, ptr addrspace(1) %in, i64 %in_bytes, ptr addrspace(1) %unused, i64 %unused_bytes, ptr addrspace(1) %uniforms) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %gid = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %gid, 64
  %i32 = add i32 %base, %tid
  %i = zext i32 %i32 to i64
  %n = lshr i64 %in_bytes, 2
  %inb = icmp ult i64 %i, %n
  br i1 %inb, label %body, label %done
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

; shared: a kernel with a static group segment (256 words of LDS) that
; reverses its block's words.
@tile = internal addrspace(3) global [256 x i32] undef, align 4

declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @shared(ptr addrspace(1) %out, i64 %out_bytes) "amdgpu-flat-work-group-size"="1,256" {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t = zext i32 %tid to i64
  %src = getelementptr i32, ptr addrspace(1) %out, i64 %t
  %x = load i32, ptr addrspace(1) %src, align 4
  %slot = getelementptr [256 x i32], ptr addrspace(3) @tile, i64 0, i64 %t
  store i32 %x, ptr addrspace(3) %slot, align 4
  call void @llvm.amdgcn.s.barrier()
  %r = sub i64 255, %t
  %other = getelementptr [256 x i32], ptr addrspace(3) @tile, i64 0, i64 %r
  %y = load i32, ptr addrspace(3) %other, align 4
  store i32 %y, ptr addrspace(1) %src, align 4
  ret void
}
