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
@group(0) @binding(1) var<storage, read> b_fs: array<f32>;
@group(0) @binding(2) var<storage, read> b_gs: array<f32>;
@group(0) @binding(3) var<uniform> xpu_u: xpu_Uniforms;

// Go's comparison of the float32s of bits x and y: -1, 0 or 1, or 2 when either is NaN. Integer arithmetic, which no compiler may take for finite math.
fn xpu_cmp_f32(x: u32, y: u32) -> i32 {
    let a = select(i32(x & 2147483647u), -i32(x & 2147483647u), x > 2147483647u);
    let b = select(i32(y & 2147483647u), -i32(y & 2147483647u), y > 2147483647u);
    return select(select(select(-1i, 1i, a > b), 0i, a == b), 2i, max(x & 2147483647u, y & 2147483647u) > 2139095040u);
}

// int32(x): truncates toward zero, saturates out of range, NaN gives 0.
fn xpu_i32_of_f32(x: f32) -> i32 {
    let c = xpu_cmp_f32(bitcast<u32>(x), 3472883712u);
    if c == 2i {
        return 0i;
    }
    if c < 0i {
        return bitcast<i32>(0x80000000u);
    }
    if u32(xpu_cmp_f32(bitcast<u32>(x), 1325400064u)) < 2u {
        return 2147483647i;
    }
    return i32(x);
}

// xpu.Max for float32: y if y > x, else x (NaNs and zeros as in Go).
fn xpu_max_f32(x: f32, y: f32) -> f32 {
    return select(x, y, xpu_cmp_f32(bitcast<u32>(y), bitcast<u32>(x)) == 1i);
}

// xpu.Min for float32: y if y < x, else x (NaNs and zeros as in Go).
fn xpu_min_f32(x: f32, y: f32) -> f32 {
    return select(x, y, xpu_cmp_f32(bitcast<u32>(y), bitcast<u32>(x)) < 0i);
}

// uint32(x): truncates toward zero, saturates out of range, NaN gives 0.
fn xpu_u32_of_f32(x: f32) -> u32 {
    if !(xpu_cmp_f32(bitcast<u32>(x), 3212836864u) == 1i) {
        return 0u;
    }
    if u32(xpu_cmp_f32(bitcast<u32>(x), 1333788672u)) < 2u {
        return 4294967295u;
    }
    return u32(x);
}

// main is kernel ConvSem, block 64x1x1.
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
            let v_f: f32 = b_fs[v_i];
            let v_g: f32 = b_gs[v_i];
            let v_o: u32 = v_i * 6u;
            b_out[v_o + 0u] = u32(xpu_i32_of_f32(v_f));
            b_out[v_o + 1u] = xpu_u32_of_f32(v_f);
            b_out[v_o + 2u] = bitcast<u32>(xpu_min_f32(v_f, v_g));
            b_out[v_o + 3u] = bitcast<u32>(xpu_max_f32(v_f, v_g));
            b_out[v_o + 4u] = bitcast<u32>(f32(i32(v_o) - 100i));
            b_out[v_o + 5u] = bitcast<u32>(round(v_f * 4.0f));
        }
    }
}
