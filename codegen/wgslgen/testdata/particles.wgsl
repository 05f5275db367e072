struct S_Particle {
    m_Pos: f32,
    m_Vel: f32,
    m_ID: u32,
    m_Flags: i32,
}

struct xpu_Uniforms {
    p_dt: f32,
    p_n: u32,
    xpu_pad8: u32,
    xpu_pad12: u32,
    xpu_groups_x: u32,
    xpu_groups_y: u32,
    xpu_groups_z: u32,
    xpu_folded: u32,
}

@group(0) @binding(0) var<storage, read_write> b_p: array<S_Particle>;
@group(0) @binding(1) var<storage, read_write> b_out: array<S_Particle>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;

// main is kernel Particles, block 32x1x1.
@compute @workgroup_size(32, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) xpu_pwid: vec3<u32>, @builtin(num_workgroups) xpu_pnwg: vec3<u32>) {
    var wid = xpu_pwid;
    if xpu_u.xpu_folded != 0u {
        let xpu_p = xpu_pwid.x + (xpu_pnwg.x * xpu_pwid.y);
        if xpu_p >= ((xpu_u.xpu_groups_x * xpu_u.xpu_groups_y) * xpu_u.xpu_groups_z) {
            return;
        }
        wid = vec3<u32>(xpu_p % xpu_u.xpu_groups_x, (xpu_p / xpu_u.xpu_groups_x) % xpu_u.xpu_groups_y, xpu_p / (xpu_u.xpu_groups_x * xpu_u.xpu_groups_y));
    }
    let gid = (wid * vec3<u32>(32u, 1u, 1u)) + lid;
    {
        let v_i: u32 = gid.x;
        if v_i < xpu_u.p_n {
            b_p[v_i].m_Pos = b_p[v_i].m_Pos + (b_p[v_i].m_Vel * xpu_u.p_dt);
            b_p[v_i].m_ID = b_p[v_i].m_ID + 1u;
            var v_q: S_Particle;
            v_q = b_p[v_i];
            v_q.m_Vel = -v_q.m_Vel;
            v_q.m_Flags = v_q.m_Flags ^ 5i;
            b_out[v_i] = v_q;
        }
    }
}
