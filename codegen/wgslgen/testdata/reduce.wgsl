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

@group(0) @binding(0) var<storage, read_write> b_out: array<f32>;
@group(0) @binding(1) var<storage, read> b_in: array<f32>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;
var<workgroup> s_s: array<f32, 64>;

// main is kernel Reduce, block 64x1x1.
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
    let v_i: u32 = gid.x;
    var v_v: f32;
    v_v = f32();
    if v_i < xpu_u.p_n {
        v_v = b_in[v_i];
    }
    s_s[v_l] = v_v;
    workgroupBarrier();
    for (var v_stride: u32 = 32u; v_stride > 0u; v_stride = v_stride >> 1u) {
        if v_l < v_stride {
            s_s[v_l] = s_s[v_l] + s_s[v_l + v_stride];
        }
        workgroupBarrier();
    }
    if v_l == 0u {
        b_out[wid.x] = s_s[0u];
    }
}
