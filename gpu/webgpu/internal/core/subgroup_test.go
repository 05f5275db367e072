package core

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
)

// readback builds a probe readback of n invocations from the subgroup
// (lane, size, lane-0 local index) of each local index.
func readback(n int, of func(i uint32) (lane, size, first uint32)) []uint32 {
	out := make([]uint32, 3*n)
	for i := range uint32(n) {
		out[3*i], out[3*i+1], out[3*i+2] = of(i)
	}
	return out
}

func consecutive(s uint32) func(uint32) (uint32, uint32, uint32) {
	return func(i uint32) (uint32, uint32, uint32) { return i % s, s, i - i%s }
}

func TestCheckLayout(t *testing.T) {
	const n = probeInvocations
	for _, c := range []struct {
		name     string
		out      []uint32
		min, max uint32
		want     string // "" for a layout that holds
	}{
		{"consecutive 8", readback(n, consecutive(8)), 8, 8, ""},
		{"consecutive 4 of 4..64", readback(n, consecutive(4)), 4, 64, ""},
		{"consecutive 128", readback(n, consecutive(128)), 4, 128, ""},
		// Lanes reversed within each run of 8.
		{"permuted", readback(n, func(i uint32) (uint32, uint32, uint32) { return 7 - i%8, 8, i - i%8 + 7 }), 8, 8, "not consecutive"},
		// Lanes in order within a consecutive run, but lane 0 elsewhere.
		{"wrong leader", readback(n, func(i uint32) (uint32, uint32, uint32) { return i % 8, 8, 0 }), 8, 8, "not consecutive"},
		// Subgroup k holds k, k+16, k+32, ...: 16 subgroups of 8.
		{"strided", readback(n, func(i uint32) (uint32, uint32, uint32) { return i / 16, 8, i % 16 }), 8, 8, "not consecutive"},
		{"size outside the range", readback(n, consecutive(16)), 4, 8, "outside"},
		{"size zero", readback(n, func(i uint32) (uint32, uint32, uint32) { return 0, 0, i }), 0, 0, "outside"},
		{"size varies", readback(n, func(i uint32) (uint32, uint32, uint32) {
			if i < 64 {
				return i % 8, 8, i - i%8
			}
			return i % 16, 16, i - i%16
		}), 8, 16, "varies"},
		{"short readback", readback(n-1, consecutive(8)), 8, 8, "readback"},
	} {
		s, err := CheckLayout(c.out, n, c.min, c.max)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == "" && s != c.out[1]:
			t.Errorf("%s: size %d, want %d", c.name, s, c.out[1])
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// probeAPI is an API that runs nothing: its reads return out, or fail.
type probeAPI struct {
	out     []uint32
	compile error
}

type nothing struct{}

func (nothing) Release()                           {}
func (nothing) SetPipeline(Pipeline)               {}
func (nothing) SetBindGroup(BindGroup, []uint32)   {}
func (nothing) Dispatch(x, y, z uint32)            {}
func (nothing) Finish() (Commands, error)          { return nothing{}, nil }
func (nothing) Submit(ring Buffer, u []byte) error { return nil }

func (a *probeAPI) CreateBuffer(Usage, int) (Buffer, error) { return nothing{}, nil }
func (a *probeAPI) CreatePipeline(label, wgsl string, l []Binding) (Pipeline, error) {
	if a.compile != nil {
		return nil, a.compile
	}
	if !strings.HasPrefix(wgsl, "enable subgroups;") || len(l) != 1 {
		return nil, errors.New("not the probe")
	}
	return nothing{}, nil
}
func (a *probeAPI) CreateBindGroup(Pipeline, []Entry) (BindGroup, error) { return nothing{}, nil }
func (a *probeAPI) BeginPass() (Pass, error)                             { return nothing{}, nil }
func (a *probeAPI) WriteBuffer(Buffer, int, []byte) error                { return nil }
func (a *probeAPI) ReadBuffer(_ context.Context, src Buffer, off int, st Buffer, n int, dst []byte) error {
	for i, w := range a.out {
		binary.LittleEndian.PutUint32(dst[4*i:], w)
	}
	return nil
}
func (a *probeAPI) Wait(context.Context) error { return nil }
func (a *probeAPI) Errors() error              { return nil }
func (a *probeAPI) Close() error               { return nil }
func (a *probeAPI) Abandon()                   {}

// TestProbeAtOpen checks that Open offers the subgroups only when the
// probe finds the layout the wave tiers assume.
func TestProbeAtOpen(t *testing.T) {
	sub := driver.Info{Limits: driver.Limits{SubgroupMin: 8, SubgroupMax: 8}, Subgroups: true}
	for _, c := range []struct {
		name string
		api  *probeAPI
		want string
	}{
		{"consecutive", &probeAPI{out: readback(probeInvocations, consecutive(8))}, LayoutConsecutive},
		{"strided", &probeAPI{out: readback(probeInvocations, func(i uint32) (uint32, uint32, uint32) { return i / 16, 8, i % 16 })}, "not consecutive"},
		{"compile error", &probeAPI{compile: errors.New("subgroups unsupported")}, "probe failed: subgroups unsupported"},
	} {
		info := Open(c.api, "test", sub).Info()
		fact := info.Facts[LayoutFact]
		if !strings.HasPrefix(fact, c.want) {
			t.Errorf("%s: fact %q, want %q", c.name, fact, c.want)
		}
		offered := info.Limits.SubgroupMin == 8 && info.Limits.SubgroupMax == 8
		if held := c.want == LayoutConsecutive; offered != held {
			t.Errorf("%s: subgroup sizes %d..%d with fact %q", c.name, info.Limits.SubgroupMin, info.Limits.SubgroupMax, fact)
		}
		if !held(fact) && !strings.Contains(fact, "emulated") {
			t.Errorf("%s: fact %q does not say wave kernels run the emulated tier", c.name, fact)
		}
	}
	if _, ok := sub.Facts[LayoutFact]; ok {
		t.Errorf("Open wrote into the driver's facts")
	}
	none := Open(&probeAPI{compile: errors.New("ran")}, "test", driver.Info{Facts: map[string]string{}}).Info()
	if f, ok := none.Facts[LayoutFact]; ok {
		t.Errorf("a device without subgroups reports %s %q", LayoutFact, f)
	}
}

func held(fact string) bool { return fact == LayoutConsecutive }
