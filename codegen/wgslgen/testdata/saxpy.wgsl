struct xpu_Uniforms {
    p_a: f32,
    p_n: u32,
}

@group(0) @binding(0) var<storage, read_write> b_y: array<f32>;
@group(0) @binding(1) var<storage, read> b_x: array<f32>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;

// main is kernel Saxpy, block 64x1x1.
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    {
        let v_i: u32 = gid.x;
        if v_i < xpu_u.p_n {
            b_y[v_i] = (xpu_u.p_a * b_x[v_i]) + b_y[v_i];
        }
    }
}
