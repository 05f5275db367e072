struct xpu_Uniforms {
    p_n: u32,
}

@group(0) @binding(0) var<storage, read_write> b_cnt: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> b_out: array<u32>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;

// main is kernel ShortCircuit, block 64x1x1.
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
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
