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

@group(0) @binding(0) var<storage, read_write> b_out: array<i32>;
@group(0) @binding(1) var<storage, read> b_xs: array<i32>;
@group(0) @binding(2) var<storage, read> b_ys: array<i32>;
@group(0) @binding(3) var<storage, read> b_sh: array<u32>;
@group(0) @binding(4) var<uniform> xpu_u: xpu_Uniforms;
@group(0) @binding(5) var<storage, read_write> xpu_fault: atomic<u32>;

// Go's int32 x / y: MinInt32 / -1 wraps to MinInt32; x / 0 records the fault Go panics with.
fn xpu_div_i32(x: i32, y: i32) -> i32 {
    if y == 0i {
        atomicOr(&xpu_fault, 1u);
        return x;
    }
    if y == -1i {
        return 0i - x;
    }
    return x / y;
}

// Go's uint32 x / y; x / 0 records the fault Go panics with.
fn xpu_div_u32(x: u32, y: u32) -> u32 {
    if y == 0u {
        atomicOr(&xpu_fault, 1u);
        return x;
    }
    return x / y;
}

// Go's int32 x % y, with the sign of x: x % -1 is 0; x % 0 records the fault Go panics with.
fn xpu_rem_i32(x: i32, y: i32) -> i32 {
    if y == 0i {
        atomicOr(&xpu_fault, 1u);
        return 0i;
    }
    if y == -1i {
        return 0i;
    }
    return x % y;
}

// Go's uint32 x % y; x % 0 records the fault Go panics with.
fn xpu_rem_u32(x: u32, y: u32) -> u32 {
    if y == 0u {
        atomicOr(&xpu_fault, 1u);
        return 0u;
    }
    return x % y;
}

// Go's int32 x << y: 0 when y >= 32 (WGSL takes y modulo 32).
fn xpu_shl_i32(x: i32, y: u32) -> i32 {
    return select(0i, x << (y & 31u), y < 32u);
}

// Go's uint32 x << y: 0 when y >= 32 (WGSL takes y modulo 32).
fn xpu_shl_u32(x: u32, y: u32) -> u32 {
    return select(0u, x << (y & 31u), y < 32u);
}

// Go's int32 x >> y: the sign fills every bit when y >= 32 (WGSL takes y modulo 32).
fn xpu_shr_i32(x: i32, y: u32) -> i32 {
    return x >> min(y, 31u);
}

// Go's uint32 x >> y: 0 when y >= 32 (WGSL takes y modulo 32).
fn xpu_shr_u32(x: u32, y: u32) -> u32 {
    return select(0u, x >> (y & 31u), y < 32u);
}

// main is kernel IntSem, block 64x1x1.
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
    {
        let v_i: u32 = gid.x;
        if v_i < xpu_u.p_n {
            let v_x: i32 = b_xs[v_i];
            let v_y: i32 = b_ys[v_i];
            let v_s: u32 = b_sh[v_i];
            let v_ux: u32 = u32(v_x);
            let v_uy: u32 = u32(v_y);
            let v_o: u32 = v_i * 14u;
            b_out[v_o + 0u] = xpu_div_i32(v_x, v_y);
            b_out[v_o + 1u] = xpu_rem_i32(v_x, v_y);
            b_out[v_o + 2u] = xpu_shl_i32(v_x, v_s);
            b_out[v_o + 3u] = xpu_shr_i32(v_x, v_s);
            b_out[v_o + 4u] = i32(xpu_div_u32(v_ux, v_uy));
            b_out[v_o + 5u] = i32(xpu_rem_u32(v_ux, v_uy));
            b_out[v_o + 6u] = i32(xpu_shl_u32(v_ux, v_s));
            b_out[v_o + 7u] = i32(xpu_shr_u32(v_ux, v_s));
            b_out[v_o + 8u] = v_x & ~v_y;
            b_out[v_o + 9u] = (~v_x + -v_x) + (v_x * v_y);
            b_out[v_o + 10u] = abs(v_x);
            b_out[v_o + 11u] = min(max(v_x, v_y), 77i);
            b_out[v_o + 12u] = i32(0u - v_ux) / 7i;
            b_out[v_o + 13u] = (v_x << 31u) >> 30u;
        }
    }
}
