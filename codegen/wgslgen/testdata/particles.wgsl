struct S_Particle {
    m_Pos: f32,
    m_Vel: f32,
    m_ID: u32,
    m_Flags: i32,
}

struct xpu_Uniforms {
    p_dt: f32,
    p_n: u32,
}

@group(0) @binding(0) var<storage, read_write> b_p: array<S_Particle>;
@group(0) @binding(1) var<storage, read_write> b_out: array<S_Particle>;
@group(0) @binding(2) var<uniform> xpu_u: xpu_Uniforms;

// main is kernel Particles, block 32x1x1.
@compute @workgroup_size(32, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
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
