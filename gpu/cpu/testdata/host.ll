; The host-tier entries of gpu/cpu's tests, written by hand as the LLVM
; lowering would write them, each honouring the contract of schema/host.go:
;
;   uint32_t xpu_NAME(HostLaunch *launch, uint64_t first, uint64_t last)
;
; runs blocks first to last-1, reads the stop word (a monotonic load)
; before each block and at the top of each loop's body, and reports an
; index out of range of a buffer in the launch's HostFault. The layouts
; below are those of schema.HostLaunch, HostBuffer and HostFault on a
; 64-bit target; host_layout_test.go checks them against the Go types.

target triple = "x86_64-unknown-linux-gnu"

; HostLaunch: Groups, Wave, Uniforms, Buffers, Stop, Fault.
%Launch = type { [3 x i32], i32, ptr, ptr, ptr, ptr }
; HostBuffer: Base, Bytes.
%Buffer = type { ptr, i64 }
; HostFault: Code, Group, Local, Object, Index.
%Fault = type { i32, [3 x i32], [3 x i32], i32, i32 }

; The codes of schema/host.go used here.
; HostOK = 0, HostFaultIndex = 1, HostStopped = 4.

; stopped reports whether the launch's stop word is set.
define internal i1 @stopped(ptr %l) {
  %sp = getelementptr inbounds %Launch, ptr %l, i32 0, i32 4
  %s = load ptr, ptr %sp
  %v = load atomic i32, ptr %s monotonic, align 4
  %r = icmp ne i32 %v, 0
  ret i1 %r
}

; groupX returns the X coordinate of block b: b mod Groups[0].
define internal i32 @groupX(ptr %l, i64 %b) {
  %gp = getelementptr inbounds %Launch, ptr %l, i32 0, i32 0, i32 0
  %g = load i32, ptr %gp
  %gw = zext i32 %g to i64
  %x = urem i64 %b, %gw
  %r = trunc i64 %x to i32
  ret i32 %r
}

; groupYZ returns the Y (axis 1) or Z (axis 2) coordinate of block b.
define internal i32 @groupYZ(ptr %l, i64 %b, i32 %axis) {
  %g0p = getelementptr inbounds %Launch, ptr %l, i32 0, i32 0, i32 0
  %g0 = load i32, ptr %g0p
  %g1p = getelementptr inbounds %Launch, ptr %l, i32 0, i32 0, i32 1
  %g1 = load i32, ptr %g1p
  %g0w = zext i32 %g0 to i64
  %g1w = zext i32 %g1 to i64
  %q = udiv i64 %b, %g0w
  %y = urem i64 %q, %g1w
  %z = udiv i64 %q, %g1w
  %isy = icmp eq i32 %axis, 1
  %c = select i1 %isy, i64 %y, i64 %z
  %r = trunc i64 %c to i32
  ret i32 %r
}

; fault writes an index fault of work-item lx (Y = Z = 0) of block b on
; parameter obj at index idx to the launch's HostFault and returns its
; code.
define internal i32 @fault(ptr %l, i64 %b, i32 %lx, i32 %obj, i32 %idx) {
  %fp = getelementptr inbounds %Launch, ptr %l, i32 0, i32 5
  %f = load ptr, ptr %fp
  %gx = call i32 @groupX(ptr %l, i64 %b)
  %gy = call i32 @groupYZ(ptr %l, i64 %b, i32 1)
  %gz = call i32 @groupYZ(ptr %l, i64 %b, i32 2)
  %code = getelementptr inbounds %Fault, ptr %f, i32 0, i32 0
  store i32 1, ptr %code
  %g0 = getelementptr inbounds %Fault, ptr %f, i32 0, i32 1, i32 0
  store i32 %gx, ptr %g0
  %g1 = getelementptr inbounds %Fault, ptr %f, i32 0, i32 1, i32 1
  store i32 %gy, ptr %g1
  %g2 = getelementptr inbounds %Fault, ptr %f, i32 0, i32 1, i32 2
  store i32 %gz, ptr %g2
  %l0 = getelementptr inbounds %Fault, ptr %f, i32 0, i32 2, i32 0
  store i32 %lx, ptr %l0
  %l1 = getelementptr inbounds %Fault, ptr %f, i32 0, i32 2, i32 1
  store i32 0, ptr %l1
  %l2 = getelementptr inbounds %Fault, ptr %f, i32 0, i32 2, i32 2
  store i32 0, ptr %l2
  %op = getelementptr inbounds %Fault, ptr %f, i32 0, i32 3
  store i32 %obj, ptr %op
  %ip = getelementptr inbounds %Fault, ptr %f, i32 0, i32 4
  store i32 %idx, ptr %ip
  ret i32 1
}

; base returns the first byte of buffer j.
define internal ptr @base(ptr %l, i32 %j) {
  %bp = getelementptr inbounds %Launch, ptr %l, i32 0, i32 3
  %bs = load ptr, ptr %bp
  %p = getelementptr inbounds %Buffer, ptr %bs, i32 %j, i32 0
  %r = load ptr, ptr %p
  ret ptr %r
}

; len4 returns the length of buffer j in 4-byte elements.
define internal i64 @len4(ptr %l, i32 %j) {
  %bp = getelementptr inbounds %Launch, ptr %l, i32 0, i32 3
  %bs = load ptr, ptr %bp
  %p = getelementptr inbounds %Buffer, ptr %bs, i32 %j, i32 1
  %n = load i64, ptr %p
  %r = lshr i64 %n, 2
  ret i64 %r
}

; uniform returns the 32 bits at byte off of the uniform block.
define internal i32 @uniform(ptr %l, i64 %off) {
  %up = getelementptr inbounds %Launch, ptr %l, i32 0, i32 2
  %u = load ptr, ptr %up
  %p = getelementptr inbounds i8, ptr %u, i64 %off
  %r = load i32, ptr %p, align 4
  ret i32 %r
}

; xpu_saxpy: block 64; y[i] = a*x[i] + y[i] for i = X*64+lx below n.
; Parameters: y (0, buffer), x (1, buffer), a (float32 at 0), n (uint32 at 4).
define i32 @xpu_saxpy(ptr %l, i64 %first, i64 %last) {
entry:
  %y = call ptr @base(ptr %l, i32 0)
  %ylen = call i64 @len4(ptr %l, i32 0)
  %x = call ptr @base(ptr %l, i32 1)
  %xlen = call i64 @len4(ptr %l, i32 1)
  %abits = call i32 @uniform(ptr %l, i64 0)
  %a = bitcast i32 %abits to float
  %n = call i32 @uniform(ptr %l, i64 4)
  br label %block

block:
  %b = phi i64 [ %first, %entry ], [ %bnext, %blockend ]
  %more = icmp ult i64 %b, %last
  br i1 %more, label %poll, label %done

poll:
  %s = call i1 @stopped(ptr %l)
  br i1 %s, label %stop, label %start

start:
  %gx = call i32 @groupX(ptr %l, i64 %b)
  %first.i = mul i32 %gx, 64
  br label %item

item:
  %lx = phi i32 [ 0, %start ], [ %lxnext, %itemend ]
  %i = add i32 %first.i, %lx
  %live = icmp ult i32 %i, %n
  br i1 %live, label %checkx, label %itemend

checkx:
  %iw = zext i32 %i to i64
  %xok = icmp ult i64 %iw, %xlen
  br i1 %xok, label %checky, label %faultx

checky:
  %yok = icmp ult i64 %iw, %ylen
  br i1 %yok, label %work, label %faulty

work:
  %xp = getelementptr inbounds float, ptr %x, i64 %iw
  %xv = load float, ptr %xp
  %yp = getelementptr inbounds float, ptr %y, i64 %iw
  %yv = load float, ptr %yp
  %ax = fmul float %a, %xv
  %r = fadd float %ax, %yv
  store float %r, ptr %yp
  br label %itemend

itemend:
  %lxnext = add i32 %lx, 1
  %last.item = icmp eq i32 %lxnext, 64
  br i1 %last.item, label %blockend, label %item

blockend:
  %bnext = add i64 %b, 1
  br label %block

faultx:
  %fx = call i32 @fault(ptr %l, i64 %b, i32 %lx, i32 1, i32 %i)
  ret i32 %fx

faulty:
  %fy = call i32 @fault(ptr %l, i64 %b, i32 %lx, i32 0, i32 %i)
  ret i32 %fy

stop:
  ret i32 4

done:
  ret i32 0
}

; xpu_shift: block 64; out[i+off] = in[i] for i = b*64+lx below n, where
; b is the block's place in the grid's linear order.
; Parameters: out (0, buffer), in (1, buffer), off (uint32 at 0), n
; (uint32 at 4). An off that takes i+off past out's end is an index fault.
define i32 @xpu_shift(ptr %l, i64 %first, i64 %last) {
entry:
  %out = call ptr @base(ptr %l, i32 0)
  %outlen = call i64 @len4(ptr %l, i32 0)
  %in = call ptr @base(ptr %l, i32 1)
  %inlen = call i64 @len4(ptr %l, i32 1)
  %off = call i32 @uniform(ptr %l, i64 0)
  %n = call i32 @uniform(ptr %l, i64 4)
  br label %block

block:
  %b = phi i64 [ %first, %entry ], [ %bnext, %blockend ]
  %more = icmp ult i64 %b, %last
  br i1 %more, label %poll, label %done

poll:
  %s = call i1 @stopped(ptr %l)
  br i1 %s, label %stop, label %start

start:
  %bt = trunc i64 %b to i32
  %first.i = mul i32 %bt, 64
  br label %item

item:
  %lx = phi i32 [ 0, %start ], [ %lxnext, %itemend ]
  %i = add i32 %first.i, %lx
  %live = icmp ult i32 %i, %n
  br i1 %live, label %checkin, label %itemend

checkin:
  %iw = zext i32 %i to i64
  %inok = icmp ult i64 %iw, %inlen
  br i1 %inok, label %checkout, label %faultin

checkout:
  %j = add i32 %i, %off
  %jw = zext i32 %j to i64
  %outok = icmp ult i64 %jw, %outlen
  br i1 %outok, label %work, label %faultout

work:
  %ip = getelementptr inbounds i32, ptr %in, i64 %iw
  %v = load i32, ptr %ip
  %op = getelementptr inbounds i32, ptr %out, i64 %jw
  store i32 %v, ptr %op
  br label %itemend

itemend:
  %lxnext = add i32 %lx, 1
  %last.item = icmp eq i32 %lxnext, 64
  br i1 %last.item, label %blockend, label %item

blockend:
  %bnext = add i64 %b, 1
  br label %block

faultin:
  %fi = call i32 @fault(ptr %l, i64 %b, i32 %lx, i32 1, i32 %i)
  ret i32 %fi

faultout:
  %fo = call i32 @fault(ptr %l, i64 %b, i32 %lx, i32 0, i32 %j)
  ret i32 %fo

stop:
  ret i32 4

done:
  ret i32 0
}

; xpu_forever: a loop that ends only when the launch's stop word is set.
; Parameters: out (0, buffer), never written.
define i32 @xpu_forever(ptr %l, i64 %first, i64 %last) {
entry:
  %more = icmp ult i64 %first, %last
  br i1 %more, label %loop, label %done

loop:
  %s = call i1 @stopped(ptr %l)
  br i1 %s, label %stop, label %loop

stop:
  ret i32 4

done:
  ret i32 0
}

; xpu_add: drivertest's Add kernel, block 64: out[i] = in[i] + k for
; i = X*64+lx below in's length. Parameters: out (0), in (1), unused (2,
; never touched), k (uint32 at 0).
define i32 @xpu_add(ptr %l, i64 %first, i64 %last) {
entry:
  %out = call ptr @base(ptr %l, i32 0)
  %outlen = call i64 @len4(ptr %l, i32 0)
  %in = call ptr @base(ptr %l, i32 1)
  %inlen = call i64 @len4(ptr %l, i32 1)
  %k = call i32 @uniform(ptr %l, i64 0)
  br label %block

block:
  %b = phi i64 [ %first, %entry ], [ %bnext, %blockend ]
  %more = icmp ult i64 %b, %last
  br i1 %more, label %poll, label %done

poll:
  %s = call i1 @stopped(ptr %l)
  br i1 %s, label %stop, label %start

start:
  %gx = call i32 @groupX(ptr %l, i64 %b)
  %first.i = mul i32 %gx, 64
  br label %item

item:
  %lx = phi i32 [ 0, %start ], [ %lxnext, %itemend ]
  %i = add i32 %first.i, %lx
  %iw = zext i32 %i to i64
  %live = icmp ult i64 %iw, %inlen
  br i1 %live, label %checkout, label %itemend

checkout:
  %outok = icmp ult i64 %iw, %outlen
  br i1 %outok, label %work, label %faultout

work:
  %ip = getelementptr inbounds i32, ptr %in, i64 %iw
  %v = load i32, ptr %ip
  %r = add i32 %v, %k
  %op = getelementptr inbounds i32, ptr %out, i64 %iw
  store i32 %r, ptr %op
  br label %itemend

itemend:
  %lxnext = add i32 %lx, 1
  %last.item = icmp eq i32 %lxnext, 64
  br i1 %last.item, label %blockend, label %item

blockend:
  %bnext = add i64 %b, 1
  br label %block

faultout:
  %fo = call i32 @fault(ptr %l, i64 %b, i32 %lx, i32 0, i32 %i)
  ret i32 %fo

stop:
  ret i32 4

done:
  ret i32 0
}

; xpu_spin: drivertest's Spin kernel, block 1: x = 1664525*x + 1013904223
; from x = 12345, rounds*inner times, then out[0] = x, out[1] = rounds.
; Parameters: out (0), rounds (uint32 at 0), inner (uint32 at 4).
define i32 @xpu_spin(ptr %l, i64 %first, i64 %last) {
entry:
  %out = call ptr @base(ptr %l, i32 0)
  %outlen = call i64 @len4(ptr %l, i32 0)
  %rounds = call i32 @uniform(ptr %l, i64 0)
  %inner = call i32 @uniform(ptr %l, i64 4)
  br label %block

block:
  %b = phi i64 [ %first, %entry ], [ %bnext, %written ]
  %more = icmp ult i64 %b, %last
  br i1 %more, label %poll, label %done

poll:
  %s = call i1 @stopped(ptr %l)
  br i1 %s, label %stop, label %outer

outer:
  %x = phi i32 [ 12345, %poll ], [ %xo, %outerend ]
  %i = phi i32 [ 0, %poll ], [ %inext, %outerend ]
  %running = icmp ult i32 %i, %rounds
  br i1 %running, label %outerbody, label %write

outerbody:
  %so = call i1 @stopped(ptr %l)
  br i1 %so, label %stop, label %inner.loop

inner.loop:
  %xi = phi i32 [ %x, %outerbody ], [ %xn, %innerbody ]
  %j = phi i32 [ 0, %outerbody ], [ %jnext, %innerbody ]
  %stepping = icmp ult i32 %j, %inner
  br i1 %stepping, label %innerpoll, label %outerend

innerpoll:
  %si = call i1 @stopped(ptr %l)
  br i1 %si, label %stop, label %innerbody

innerbody:
  %xm = mul i32 %xi, 1664525
  %xn = add i32 %xm, 1013904223
  %jnext = add i32 %j, 1
  br label %inner.loop

outerend:
  %xo = phi i32 [ %xi, %inner.loop ]
  %inext = add i32 %i, 1
  br label %outer

write:
  %has2 = icmp ult i64 1, %outlen
  br i1 %has2, label %store, label %fault

store:
  store i32 %x, ptr %out
  %o1 = getelementptr inbounds i32, ptr %out, i64 1
  store i32 %i, ptr %o1
  br label %written

written:
  %bnext = add i64 %b, 1
  br label %block

fault:
  %has1 = icmp ult i64 0, %outlen
  %idx = select i1 %has1, i32 1, i32 0
  %f = call i32 @fault(ptr %l, i64 %b, i32 0, i32 0, i32 %idx)
  ret i32 %f

stop:
  ret i32 4

done:
  ret i32 0
}
