package drivertest

// This file holds the cases of a device's description and of compiling.

import (
	"strings"
	"testing"
)

// testInfo checks what every driver reports: the backend, a name, a
// driver, a type, the limits every backend has, and subgroup sizes in
// order; then what the driver alone promises (Config.CheckInfo).
func testInfo(t *testing.T, c Config) {
	d := c.open(t)
	info := d.Info()
	l := info.Limits
	t.Logf("%s (%s, %s, %s): %+v %v", info.Name, info.Type, info.Driver, info.Software, l, info.Facts)
	if info.Backend != c.Backend || (info.Name == "" && !c.NoName) || info.Driver == "" || (info.Type == "" && !c.NoType) {
		t.Errorf("info %+v lacks the backend %q, a name, driver or type", info, c.Backend)
	}
	if l.MaxInvocationsPerBlock == 0 || l.MaxBlockSize.X == 0 || l.MaxGroups == 0 || l.MaxSharedBytes == 0 ||
		l.MaxStorageBufferBytes == 0 || l.MaxBufferBytes == 0 {
		t.Errorf("limits %+v: a limit every backend has is zero", l)
	}
	if l.SubgroupMin > l.SubgroupMax || (l.SubgroupMin == 0) != (l.SubgroupMax == 0) {
		t.Errorf("subgroup sizes %d..%d", l.SubgroupMin, l.SubgroupMax)
	}
	if c.CheckInfo != nil {
		c.CheckInfo(t, d)
	}
}

// testCompileErrors compiles the kernels the driver must refuse: each
// fails with an error that says what Refusal.Says, and the device then
// compiles the Add kernel and holds no error of them.
func testCompileErrors(t *testing.T, c Config) {
	d := c.open(t)
	var refusals []Refusal
	if c.Refusals != nil {
		refusals = c.Refusals(c.addKernel)
	}
	if len(refusals) == 0 {
		t.Fatal("the driver names no kernel its Compile refuses (Config.Refusals)")
	}
	for _, r := range refusals {
		p, err := d.Compile(r.Kernel)
		if err == nil {
			p.Release()
			t.Errorf("%s: compiled", r.Why)
			continue
		}
		for _, w := range r.Says {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want an error saying %q", r.Why, err, w)
			}
		}
		t.Logf("%s: %v", r.Why, err)
	}
	p, err := d.Compile(c.addKernel)
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	c.leftErrors(t, d)
}
