struct xpu_Uniforms {
    p_n: u32,
}

@group(0) @binding(0) var<storage, read_write> b_out: array<u32>;
@group(0) @binding(1) var<storage, read> b_fs: array<f32>;
@group(0) @binding(2) var<storage, read> b_gs: array<f32>;
@group(0) @binding(3) var<uniform> xpu_u: xpu_Uniforms;

// int32(x): truncates toward zero, saturates out of range, NaN gives 0.
fn xpu_i32_of_f32(x: f32) -> i32 {
    if x != x {
        return 0i;
    }
    if x < -0x1p31f {
        return bitcast<i32>(0x80000000u);
    }
    if x >= 0x1p31f {
        return 2147483647i;
    }
    return i32(x);
}

// xpu.Max for float32: y if y > x, else x (NaNs and zeros as in Go).
fn xpu_max_f32(x: f32, y: f32) -> f32 {
    return select(x, y, y > x);
}

// xpu.Min for float32: y if y < x, else x (NaNs and zeros as in Go).
fn xpu_min_f32(x: f32, y: f32) -> f32 {
    return select(x, y, y < x);
}

// uint32(x): truncates toward zero, saturates out of range, NaN gives 0.
fn xpu_u32_of_f32(x: f32) -> u32 {
    if !(x > -1.0f) {
        return 0u;
    }
    if x >= 0x1p32f {
        return 4294967295u;
    }
    return u32(x);
}

// main is kernel ConvSem, block 64x1x1.
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
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
