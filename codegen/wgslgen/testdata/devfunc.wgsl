struct xpu_Uniforms {
    p_k: f32,
    p_n: u32,
    xpu_pad8: u32,
    xpu_pad12: u32,
    xpu_groups_x: u32,
    xpu_groups_y: u32,
    xpu_groups_z: u32,
    xpu_folded: u32,
}

@group(0) @binding(0) var<storage, read_write> b_out: array<f32>;
@group(0) @binding(1) var<storage, read> b_in: array<f32>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;
@group(0) @binding(3) var<storage, read_write> xpu_fault: atomic<u32>;
var<private> xpu_lid: vec3<u32>;

// Go's comparison of the float32s of bits x and y: -1, 0 or 1, or 2 when either is NaN. Integer arithmetic, which no compiler may take for finite math.
fn xpu_cmp_f32(x: u32, y: u32) -> i32 {
    let a = select(i32(x & 2147483647u), -i32(x & 2147483647u), x > 2147483647u);
    let b = select(i32(y & 2147483647u), -i32(y & 2147483647u), y > 2147483647u);
    return select(select(select(-1i, 1i, a > b), 0i, a == b), 2i, max(x & 2147483647u, y & 2147483647u) > 2139095040u);
}

// xpu.Max for float32: y if y > x, else x (NaNs and zeros as in Go).
fn xpu_max_f32(x: f32, y: f32) -> f32 {
    return select(x, y, xpu_cmp_f32(bitcast<u32>(y), bitcast<u32>(x)) == 1i);
}

// xpu.Min for float32: y if y < x, else x (NaNs and zeros as in Go).
fn xpu_min_f32(x: f32, y: f32) -> f32 {
    return select(x, y, xpu_cmp_f32(bitcast<u32>(y), bitcast<u32>(x)) < 0i);
}

// Go's uint32 x % y; x % 0 records the fault Go panics with.
fn xpu_rem_u32(x: u32, y: u32) -> u32 {
    if y == 0u {
        atomicOr(&xpu_fault, 1u);
        return 0u;
    }
    return x % y;
}

fn f_twice(a_x: f32) -> f32 {
    var v_x: f32 = a_x;
    return v_x + v_x;
}

fn f_weight(a_a: vec4<f32>, a_k: f32) -> f32 {
    var v_a: vec4<f32> = a_a;
    var v_k: f32 = a_k;
    var v_s: f32;
    v_s = f32();
    for (var v_j: i32 = 0i; v_j < 4i; v_j = v_j + 1i) {
        v_s = v_s + v_a[v_j];
    }
    v_a[0i] = v_s;
    return f_twice(xpu_min_f32(xpu_max_f32((v_a[0i] * v_k) + f32(xpu_lid.x), -1.0f), 40.0f));
}

// main is kernel DevFunc, block 64x1x1.
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) xpu_pwid: vec3<u32>, @builtin(num_workgroups) xpu_pnwg: vec3<u32>) {
    var wid = xpu_pwid;
    if xpu_u.xpu_folded != 0u {
        let xpu_p = xpu_pwid.x + (xpu_pnwg.x * xpu_pwid.y);
        if xpu_p >= ((xpu_u.xpu_groups_x * xpu_u.xpu_groups_y) * xpu_u.xpu_groups_z) {
            return;
        }
        wid = vec3<u32>(xpu_p % xpu_u.xpu_groups_x, (xpu_p / xpu_u.xpu_groups_x) % xpu_u.xpu_groups_y, xpu_p / (xpu_u.xpu_groups_x * xpu_u.xpu_groups_y));
    }
    let gid = (wid * vec3<u32>(64u, 1u, 1u)) + lid;
    xpu_lid = lid;
    {
        let v_i: u32 = gid.x;
        if v_i < xpu_u.p_n {
            var v_a: vec4<f32>;
            v_a = vec4<f32>();
            v_a[0u] = b_in[xpu_rem_u32((v_i * 4u) + 0u, xpu_u.p_n)];
            v_a[1u] = b_in[xpu_rem_u32((v_i * 4u) + 1u, xpu_u.p_n)];
            v_a[2u] = b_in[xpu_rem_u32((v_i * 4u) + 2u, xpu_u.p_n)];
            v_a[3u] = b_in[xpu_rem_u32((v_i * 4u) + 3u, xpu_u.p_n)];
            b_out[v_i] = f_weight(v_a, xpu_u.p_k);
        }
    }
}
