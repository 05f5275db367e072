struct xpu_Uniforms {
    p_n: u32,
    p_bins: u32,
    xpu_pad8: u32,
    xpu_pad12: u32,
    xpu_groups_x: u32,
    xpu_groups_y: u32,
    xpu_groups_z: u32,
    xpu_folded: u32,
}

@group(0) @binding(0) var<storage, read_write> b_hist: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read> b_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> b_hi: array<atomic<i32>>;
@group(0) @binding(3) var<storage, read_write> b_sum: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> xpu_u: xpu_Uniforms;
@group(0) @binding(5) var<storage, read_write> xpu_fault: atomic<u32>;

// Go's uint32 x % y; x % 0 records the fault Go panics with.
fn xpu_rem_u32(x: u32, y: u32) -> u32 {
    if y == 0u {
        atomicOr(&xpu_fault, 1u);
        return 0u;
    }
    return x % y;
}

// main is kernel Histogram, block 64x1x1.
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
    if v_i < xpu_u.p_n {
        let v_v: u32 = b_in[v_i];
        atomicAdd(&b_hist[xpu_rem_u32(v_v, xpu_u.p_bins)], 1u);
        atomicMax(&b_hi[0i], i32(v_v) - 1000i);
        loop {
            let v_old: u32 = atomicLoad(&b_sum[0u]);
            let xpu_t1 = v_old + v_v;
            var xpu_t2: u32;
            loop {
                let xpu_t3 = atomicCompareExchangeWeak(&b_sum[0u], v_old, xpu_t1);
                if xpu_t3.exchanged || (xpu_t3.old_value != v_old) {
                    xpu_t2 = xpu_t3.old_value;
                    break;
                }
            }
            if xpu_t2 == v_old {
                break;
            }
        }
    }
}
