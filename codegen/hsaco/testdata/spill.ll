; spill: a private array indexed by a loaded index, which the backend
; keeps in the private segment (scratch), and register pressure beyond a
; VGPR budget the attributes cap, so that the code object reports
; spills and a private segment.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @spill(ptr addrspace(1) %out, i64 %out_bytes, ptr addrspace(1) %in, i64 %in_bytes) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t = zext i32 %tid to i64
  %arr = alloca [64 x i32], align 4, addrspace(5)
  br label %fill
fill:
  %j = phi i64 [ 0, %entry ], [ %j1, %fill ]
  %p = getelementptr i32, ptr addrspace(1) %in, i64 %j
  %v = load i32, ptr addrspace(1) %p, align 4
  %slot = getelementptr [64 x i32], ptr addrspace(5) %arr, i64 0, i64 %j
  store i32 %v, ptr addrspace(5) %slot, align 4
  %j1 = add i64 %j, 1
  %more = icmp ult i64 %j1, 64
  br i1 %more, label %fill, label %read
read:
  %ip = getelementptr i32, ptr addrspace(1) %in, i64 %t
  %idx = load i32, ptr addrspace(1) %ip, align 4
  %m = and i32 %idx, 63
  %mi = zext i32 %m to i64
  %q = getelementptr [64 x i32], ptr addrspace(5) %arr, i64 0, i64 %mi
  %x = load i32, ptr addrspace(5) %q, align 4
  %vp = getelementptr <32 x i32>, ptr addrspace(1) %in, i64 %t
  %vec = load volatile <32 x i32>, ptr addrspace(1) %vp, align 4
  %vec2 = load volatile <32 x i32>, ptr addrspace(1) %vp, align 4
  %sum = add <32 x i32> %vec, %vec2
  %mul = mul <32 x i32> %vec, %sum
  store volatile <32 x i32> %mul, ptr addrspace(1) %vp, align 4
  store volatile <32 x i32> %sum, ptr addrspace(1) %vp, align 4
  store volatile <32 x i32> %vec, ptr addrspace(1) %vp, align 4
  %dst = getelementptr i32, ptr addrspace(1) %out, i64 %t
  store i32 %x, ptr addrspace(1) %dst, align 4
  ret void
}

attributes #0 = { "amdgpu-num-vgpr"="24" "amdgpu-flat-work-group-size"="1,256" }
