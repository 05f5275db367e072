struct xpu_Uniforms {
    p_n: u32,
    xpu_pad4: u32,
    xpu_pad8: u32,
    xpu_pad12: u32,
    xpu_groups_x: u32,
    xpu_groups_y: u32,
    xpu_groups_z: u32,
    xpu_folded: u32,
}

@group(0) @binding(0) var<storage, read_write> b_out: array<u32>;
@group(0) @binding(1) var<storage, read_write> b_fa: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> b_pos: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> b_log: array<u32>;
@group(0) @binding(4) var<uniform> xpu_u: xpu_Uniforms;
var<workgroup> s_cnt: array<atomic<u32>, 8>;

// Go's comparison of the float32s of bits x and y: -1, 0 or 1, or 2 when either is NaN. Integer arithmetic, which no compiler may take for finite math.
fn xpu_cmp_f32(x: u32, y: u32) -> i32 {
    let a = select(i32(x & 2147483647u), -i32(x & 2147483647u), x > 2147483647u);
    let b = select(i32(y & 2147483647u), -i32(y & 2147483647u), y > 2147483647u);
    return select(select(select(-1i, 1i, a > b), 0i, a == b), 2i, max(x & 2147483647u, y & 2147483647u) > 2139095040u);
}

// The float32 with bits x, made at run time: an infinity or a NaN in a const-expression makes Tint refuse the shader.
fn xpu_f32_of_bits(x: u32) -> f32 {
    return bitcast<f32>(x);
}

// xpu.Max for float32: y if y > x, else x (NaNs and zeros as in Go).
fn xpu_max_f32(x: f32, y: f32) -> f32 {
    return select(x, y, xpu_cmp_f32(bitcast<u32>(y), bitcast<u32>(x)) == 1i);
}

// Go's uint32 x << y: 0 when y >= 32 (WGSL takes y modulo 32).
fn xpu_shl_u32(x: u32, y: u32) -> u32 {
    return select(0u, x << (y & 31u), y < 32u);
}

fn f_logv(a_i: u32, a_v: u32) -> u32 {
    var v_i: u32 = a_i;
    var v_v: u32 = a_v;
    let v_k: u32 = atomicAdd(&b_pos[v_i], 1u);
    b_log[(v_i * 4u) + v_k] = v_v;
    return v_v;
}

fn f_mkArr(a_i: u32) -> vec4<u32> {
    var v_i: u32 = a_i;
    var v_a: vec4<u32>;
    v_a = vec4<u32>();
    v_a[0u] = v_i;
    v_a[1u] = v_i * 3u;
    v_a[2u] = ~v_i;
    v_a[3u] = 7u;
    return v_a;
}

// main is kernel Misc, block 64x1x1.
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) xpu_pwid: vec3<u32>, @builtin(num_workgroups) xpu_pnwg: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
    var wid = xpu_pwid;
    if xpu_u.xpu_folded != 0u {
        let xpu_p = xpu_pwid.x + (xpu_pnwg.x * xpu_pwid.y);
        if xpu_p >= ((xpu_u.xpu_groups_x * xpu_u.xpu_groups_y) * xpu_u.xpu_groups_z) {
            return;
        }
        wid = vec3<u32>(xpu_p % xpu_u.xpu_groups_x, (xpu_p / xpu_u.xpu_groups_x) % xpu_u.xpu_groups_y, xpu_p / (xpu_u.xpu_groups_x * xpu_u.xpu_groups_y));
    }
    let gid = (wid * vec3<u32>(64u, 1u, 1u)) + lid;
    let v_l: u32 = lidx;
    if v_l < 8u {
        atomicStore(&s_cnt[v_l], 1000u + v_l);
    }
    workgroupBarrier();
    atomicAdd(&s_cnt[v_l % 4u], 3u);
    atomicSub(&s_cnt[v_l % 4u], 1u);
    atomicOr(&s_cnt[4u], xpu_shl_u32(1u, v_l % 32u));
    atomicAnd(&s_cnt[5u], ~xpu_shl_u32(1u, v_l % 8u));
    atomicMin(&s_cnt[6u], v_l + 500u);
    atomicMax(&s_cnt[7u], v_l * 3u);
    workgroupBarrier();
    let v_i: u32 = gid.x;
    if v_i >= xpu_u.p_n {
        return;
    }
    let v_o: u32 = v_i * 8u;
    b_out[v_o + 0u] = atomicLoad(&s_cnt[v_l % 8u]);
    b_out[v_o + 1u] = arrayLength(&b_out);
    var v_acc: u32;
    v_acc = u32();
    for (var v_j: u32 = 0u; v_j < 10u; v_j = v_j + 1u) {
        if v_j == 3u {
            continue;
        } else if (v_j % 2u) == 0u {
            v_acc = v_acc + v_j;
        } else {
            v_acc = v_acc ^ (v_j << 4u);
        }
    }
    b_out[v_o + 2u] = v_acc;
    var xpu_t1: vec4<u32> = f_mkArr(v_i);
    b_out[v_o + 3u] = xpu_t1[v_i % 4u];
    let v_f: f32 = bitcast<f32>(atomicLoad(&b_fa[v_i]));
    atomicStore(&b_fa[v_i], bitcast<u32>(v_f * 2.0f));
    var xpu_t2 = atomicLoad(&b_fa[v_i]);
    loop {
        let xpu_t3 = atomicCompareExchangeWeak(&b_fa[v_i], xpu_t2, bitcast<u32>(bitcast<f32>(xpu_t2) + 0.5f));
        if xpu_t3.exchanged {
            break;
        }
        xpu_t2 = xpu_t3.old_value;
    }
    b_out[v_o + 4u] = bitcast<u32>(xpu_max_f32(v_f, xpu_f32_of_bits(4286578688u)));
    b_out[v_o + 5u] = u32(i32(v_i) + bitcast<i32>(0x80000000u));
    let xpu_t7 = f_logv(v_i, 1u);
    let xpu_t4 = f_logv(v_i, 2u);
    var xpu_t5: u32;
    loop {
        let xpu_t6 = atomicCompareExchangeWeak(&b_pos[v_i], 1u, xpu_t4);
        if xpu_t6.exchanged || (xpu_t6.old_value != 1u) {
            xpu_t5 = xpu_t6.old_value;
            break;
        }
    }
    b_out[v_o + 6u] = xpu_t7 + xpu_t5;
    var xpu_t8: bool = v_i < xpu_u.p_n;
    if xpu_t8 {
        xpu_t8 = f_logv(v_i, 3u) == 3u;
    }
    if xpu_t8 {
        b_out[v_o + 7u] = 1u;
    }
}
