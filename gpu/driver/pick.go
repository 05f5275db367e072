package driver

// This file picks, by data, the artifact of a kernel a device runs: the
// code generator writes one per backend, target and selector, and a
// driver chooses among its own by the device's facts, without codegen.

import "github.com/goxpu/xpu/schema"

// Pick returns the artifact of k that a device of backend runs when its
// subgroups are min to max lanes wide (both zero: no subgroups): of k's
// artifacts for backend, the first whose selector names a range of
// subgroup sizes that holds the device's, else the first for any device
// (the emulated wave tier, or a kernel without waves). It returns nil when
// k has no artifact the device can run.
func Pick(k *Kernel, backend schema.Backend, min, max uint32) *schema.Artifact {
	var anyDevice *schema.Artifact
	for i := range k.Artifacts {
		a := &k.Artifacts[i]
		switch {
		case a.Backend != backend || !a.Selector.Holds(min, max):
		case a.Selector.SubgroupMin != 0:
			return a
		case anyDevice == nil:
			anyDevice = a
		}
	}
	return anyDevice
}
