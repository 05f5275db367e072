package core

// This file measures the subgroup layout the wave tiers assume. The
// native, folded and narrow tiers take subgroup k of a workgroup to hold
// the local invocation indices k*S .. k*S+S-1, with subgroup_invocation_id
// equal to local_invocation_index % S. WGSL does not promise this, so a
// device that offers subgroups runs a probe at open, and the wave tiers get
// the subgroups only when the layout holds: otherwise a wave kernel runs
// the emulated tier, slower but right.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
)

// LayoutFact is the fact that reports the probe: LayoutConsecutive, or why
// the subgroups are not offered to the wave tiers.
const LayoutFact = "subgroup-layout"

// LayoutConsecutive is LayoutFact's value on a device whose subgroups are
// the consecutive runs of local indices the wave tiers assume.
const LayoutConsecutive = "consecutive"

// probeInvocations is the probe's workgroup size: several subgroups at
// every size WebGPU allows (4 to 128) but the largest, and within the
// 256 invocations every device allows.
const probeInvocations = 128

// probeWGSL writes, per invocation, its subgroup_invocation_id, its
// subgroup_size, and the local index of lane 0 of its subgroup.
const probeWGSL = `enable subgroups;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) li: u32,
        @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) size: u32) {
    let first = subgroupBroadcast(li, 0u);
    out[li * 3u] = lane;
    out[li * 3u + 1u] = size;
    out[li * 3u + 2u] = first;
}
`

// CheckLayout checks the probe's readback: per local index i, the triple
// (subgroup_invocation_id, subgroup_size, local index of lane 0 of its
// subgroup), for n invocations, on a device whose subgroup sizes lie in
// min..max. It returns the subgroup size when subgroup k holds the local
// indices k*S .. k*S+S-1 in order, and an error that says how the layout
// differs otherwise.
//
// Lane 0 of each subgroup is one invocation, so the invocations that name
// the same lane-0 index share a subgroup; when each names i - i%S and has
// lane i%S, the subgroups are exactly the consecutive runs of S.
func CheckLayout(out []uint32, n int, min, max uint32) (uint32, error) {
	if n <= 0 || len(out) != 3*n {
		return 0, fmt.Errorf("readback of %d words, want %d", len(out), 3*n)
	}
	s := out[1]
	if s == 0 || s < min || s > max {
		return 0, fmt.Errorf("subgroup size %d outside the adapter's %d..%d", s, min, max)
	}
	for i := range uint32(n) {
		lane, size, first := out[3*i], out[3*i+1], out[3*i+2]
		if size != s {
			return 0, fmt.Errorf("subgroup size varies: %d at local index 0, %d at %d", s, size, i)
		}
		if lane != i%s || first != i-i%s {
			return 0, fmt.Errorf("not consecutive: local index %d is lane %d of the subgroup led by local index %d, want lane %d of %d",
				i, lane, first, i%s, i-i%s)
		}
	}
	return s, nil
}

// checkSubgroups runs the probe on a device that offers subgroups and
// records LayoutFact in info; when the layout is not the one the wave
// tiers assume, or the probe fails, it takes the subgroup sizes out of
// info so that wave kernels run the emulated tier.
func (d *Device) checkSubgroups() {
	if d.info.Limits.SubgroupMax == 0 {
		return
	}
	// The driver may keep the map it described the device with.
	d.info.Facts = maps.Clone(d.info.Facts)
	if d.info.Facts == nil {
		d.info.Facts = map[string]string{}
	}
	out, err := d.probeSubgroups()
	if err == nil {
		_, err = CheckLayout(out, probeInvocations, d.info.Limits.SubgroupMin, d.info.Limits.SubgroupMax)
	}
	if err == nil {
		d.info.Facts[LayoutFact] = LayoutConsecutive
		return
	}
	d.info.Limits.SubgroupMin, d.info.Limits.SubgroupMax = 0, 0
	d.info.Facts[LayoutFact] = err.Error() + "; wave kernels run the emulated tier"
}

// probeSubgroups runs the probe in one dispatch of one workgroup and
// returns its readback. A failure also takes the errors the device
// reported meanwhile, so that no later call returns them as its own.
func (d *Device) probeSubgroups() ([]uint32, error) {
	out, err := d.runProbe()
	if err != nil {
		return nil, errors.Join(fmt.Errorf("probe failed: %w", err), d.api.Errors())
	}
	return out, nil
}

func (d *Device) runProbe() ([]uint32, error) {
	n := probeInvocations * 3 * 4
	buf, err := d.api.CreateBuffer(UsageStorage|UsageCopySrc, n)
	if err != nil {
		return nil, err
	}
	defer buf.Release()
	pl, err := d.api.CreatePipeline("xpu.subgroupProbe", probeWGSL, []Binding{{Type: BindingStorage}})
	if err != nil {
		return nil, err
	}
	defer pl.Release()
	g, err := d.api.CreateBindGroup(pl, []Entry{{Buffer: buf}})
	if err != nil {
		return nil, err
	}
	defer g.Release()
	pass, err := d.api.BeginPass()
	if err != nil {
		return nil, err
	}
	pass.SetPipeline(pl)
	pass.SetBindGroup(g, nil)
	pass.Dispatch(1, 1, 1)
	cmds, err := pass.Finish()
	if err != nil {
		return nil, err
	}
	if err := cmds.Submit(nil, nil); err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if err := d.readback(context.Background(), buf, 0, b); err != nil {
		return nil, err
	}
	out := make([]uint32, probeInvocations*3)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out, nil
}
