struct xpu_Uniforms {
    xpu_groups_x: u32,
    xpu_groups_y: u32,
    xpu_groups_z: u32,
    xpu_folded: u32,
}

@group(0) @binding(0) var<storage, read_write> b_out: array<f32>;
@group(0) @binding(1) var<storage, read_write> b_ints: array<i32>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;

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

// xpu.Min for float32: y if y < x, else x (NaNs and zeros as in Go).
fn xpu_min_f32(x: f32, y: f32) -> f32 {
    return select(x, y, xpu_cmp_f32(bitcast<u32>(y), bitcast<u32>(x)) < 0i);
}

// main is kernel MathFuncs, block 1x1x1.
@compute @workgroup_size(1, 1, 1)
fn main(@builtin(workgroup_id) xpu_pwid: vec3<u32>, @builtin(num_workgroups) xpu_pnwg: vec3<u32>) {
    if xpu_u.xpu_folded != 0u {
        let xpu_p = xpu_pwid.x + (xpu_pnwg.x * xpu_pwid.y);
        if xpu_p >= ((xpu_u.xpu_groups_x * xpu_u.xpu_groups_y) * xpu_u.xpu_groups_z) {
            return;
        }
    }
    var v_x: f32;
    v_x = b_out[0u];
    var v_k: i32;
    v_k = b_ints[0u];
    v_x = sqrt(v_x);
    v_x = exp(v_x);
    v_x = exp2(v_x);
    v_x = log(v_x);
    v_x = log2(v_x);
    v_x = pow(v_x, 1.5f);
    v_x = sin(v_x);
    v_x = cos(v_x);
    v_x = tan(v_x);
    v_x = tanh(v_x);
    v_x = abs(v_x);
    v_x = floor(v_x);
    v_x = ceil(v_x);
    v_x = round(v_x);
    v_x = trunc(v_x);
    v_x = xpu_min_f32(v_x, 1.5f);
    v_x = xpu_max_f32(v_x, 1.5f);
    v_x = fma(v_x, -2.0f, 3.0f);
    v_x = xpu_min_f32(xpu_max_f32(v_x, -2.0f), 3.0f);
    v_k = abs(v_k);
    v_k = min(v_k, 3i);
    v_k = max(v_k, -3i);
    v_k = v_k + i32(u32(v_k));
    v_x = v_x + xpu_f32_of_bits(2143289344u);
    v_x = v_x * xpu_f32_of_bits(2147483648u);
    v_x = 0x1.fffffep127f;
    b_out[1u] = v_x;
    b_ints[1u] = v_k / bitcast<i32>(0x80000000u);
    b_ints[2u] = bitcast<i32>(0x80000000u);
    b_ints[3u] = bitcast<i32>(0x80000000u);
    b_ints[4u] = 2147483647i;
    b_ints[5u] = 0i;
}
