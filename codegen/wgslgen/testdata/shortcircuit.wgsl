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

@group(0) @binding(0) var<storage, read_write> b_cnt: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> b_out: array<u32>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;

// main is kernel ShortCircuit, block 64x1x1.
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
    let v_i: u32 = gid.x;
    var xpu_t1: bool = v_i < xpu_u.p_n;
    if xpu_t1 {
        xpu_t1 = atomicAdd(&b_cnt[0u], 1u) != 4294967295u;
    }
    if xpu_t1 {
        b_out[v_i] = b_out[v_i] + 1u;
    }
    var xpu_t2: bool = v_i >= xpu_u.p_n;
    if !xpu_t2 {
        xpu_t2 = atomicAdd(&b_cnt[1u], 2u) == 4294967295u;
    }
    if xpu_t2 {
        return;
    }
    b_out[v_i] = b_out[v_i] + 2u;
}
