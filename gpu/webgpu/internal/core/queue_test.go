package core

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// fakeAPI is an API that runs nothing and counts what the core makes,
// submits and waits for, and keeps what each submitted dispatch would
// run.
type fakeAPI struct {
	groups    int // bind groups made and not released
	submits   int // passes submitted
	unwaited  int // passes submitted since the last Wait
	maxPass   int // the most dispatches one submitted pass held
	maxUnwait int // the most passes submitted between two waits
	finished  int // commands finished and neither submitted nor released
	ran       []ran
}

// ran is a dispatch submitted: its pipeline, group and grid, and the
// uniform bytes at its dynamic offset in the ring as the submit wrote it.
type ran struct {
	pipeline Pipeline
	group    BindGroup
	grid     [3]uint32
	block    string
}

type fakeObject struct{ release func() }

func (o *fakeObject) Release() {
	if o.release != nil {
		o.release()
	}
}

// fakePass is a pass and, once finished, its commands.
type fakePass struct {
	a        *fakeAPI
	pipeline Pipeline
	group    BindGroup
	offset   int // -1: none
	recorded []recorded
}

type recorded struct {
	ran
	offset   int
	indirect int // the ring offset of the grid; -1: none
}

func (a *fakeAPI) CreateBuffer(Usage, int) (Buffer, error) { return &fakeObject{}, nil }
func (a *fakeAPI) CreatePipeline(string, string, []Binding) (Pipeline, error) {
	return &fakeObject{}, nil
}
func (a *fakeAPI) CreateBindGroup(Pipeline, []Entry) (BindGroup, error) {
	a.groups++
	return &fakeObject{release: func() { a.groups-- }}, nil
}
func (a *fakeAPI) BeginPass() (Pass, error)              { return &fakePass{a: a, offset: -1}, nil }
func (a *fakeAPI) WriteBuffer(Buffer, int, []byte) error { return nil }
func (a *fakeAPI) ReadBuffer(context.Context, Buffer, int, Buffer, int, []byte) error {
	return nil
}
func (a *fakeAPI) Errors() error              { return nil }
func (a *fakeAPI) Close() error               { return nil }
func (a *fakeAPI) Wait(context.Context) error { a.unwaited = 0; return nil }
func (a *fakeAPI) Abandon()                   {}
func (p *fakePass) SetPipeline(pl Pipeline)   { p.pipeline = pl }
func (p *fakePass) Finish() (Commands, error) { p.a.finished++; return p, nil }
func (p *fakePass) Release()                  { p.a.finished-- }
func (p *fakePass) SetBindGroup(g BindGroup, offsets []uint32) {
	p.group, p.offset = g, -1
	if len(offsets) > 0 {
		p.offset = int(offsets[0])
	}
}
func (p *fakePass) Dispatch(x, y, z uint32) {
	p.recorded = append(p.recorded, recorded{ran: ran{pipeline: p.pipeline, group: p.group, grid: [3]uint32{x, y, z}}, offset: p.offset, indirect: -1})
}
func (p *fakePass) DispatchIndirect(_ Buffer, offset int) {
	p.recorded = append(p.recorded, recorded{ran: ran{pipeline: p.pipeline, group: p.group}, offset: p.offset, indirect: offset})
}
func (p *fakePass) Submit(_ Buffer, uniforms []byte) error {
	a := p.a
	a.finished--
	a.submits++
	a.unwaited++
	a.maxPass = max(a.maxPass, len(p.recorded))
	a.maxUnwait = max(a.maxUnwait, a.unwaited)
	for _, r := range p.recorded {
		if r.indirect >= 0 {
			for i := range r.grid {
				r.grid[i] = binary.LittleEndian.Uint32(uniforms[r.indirect+4*i:])
			}
		}
		if r.grid[0]*r.grid[1]*r.grid[2] == 0 {
			continue // no groups, nothing runs
		}
		if r.offset >= 0 {
			r.block = string(uniforms[r.offset : r.offset+fakeKernel.UniformSize])
		}
		a.ran = append(a.ran, r.ran)
	}
	return nil
}

var fakeKernel = &driver.Kernel{
	Name:  "core.fake",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "y", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "k", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: "fake"},
	},
}

// openFake returns a device over a fakeAPI, a program of fakeKernel and
// a queue.
func openFake(t *testing.T) (*fakeAPI, *Device, driver.Program, driver.Queue) {
	t.Helper()
	a := &fakeAPI{}
	d := Of(Open(a, "fake", driver.Info{}))
	p, err := d.Compile(fakeKernel)
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		q.Release()
		p.Release()
		d.Close()
	})
	return a, d, p, q
}

// TestDeferredLaunchesBounded records 100,000 launches with equal scalars
// (which share one ring slot, so the ring never fills) and no flush: no
// pass may hold more than a bounded number of them, nor may the queue
// submit more than a bounded number of passes without waiting, since a
// binding holds memory for each recorded command until it has run.
func TestDeferredLaunchesBounded(t *testing.T) {
	const launches, passBound, unwaitedBound = 100_000, 4096, 256
	a, d, p, q := openFake(t)
	y, err := d.NewBuffer(256)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Release()
	u := make([]byte, 16)
	for range launches {
		if err := q.Launch(context.Background(), p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{y}, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d launches: %d passes, at most %d launches a pass and %d passes between waits", launches, a.submits, a.maxPass, a.maxUnwait)
	if a.maxPass > passBound {
		t.Errorf("a pass held %d launches, want at most %d", a.maxPass, passBound)
	}
	if a.maxUnwait > unwaitedBound {
		t.Errorf("%d passes were submitted without a wait, want at most %d", a.maxUnwait, unwaitedBound)
	}
}

// TestReleasedViewBindGroups binds 20,000 views of one buffer, one after
// another, releasing each after its launch: the bind group cached for
// each view's range must go with it, not stay until the buffer goes.
func TestReleasedViewBindGroups(t *testing.T) {
	const views = 20_000
	a, d, p, q := openFake(t)
	b, err := d.NewBuffer(4 * views)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	u := make([]byte, 16)
	for i := range views {
		v := &driver.View{Buffer: b, Offset: 4 * i, Bytes: 4}
		if err := q.Launch(context.Background(), p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{v}, u); err != nil {
			t.Fatal(err)
		}
		v.Release()
		if i%1000 == 999 {
			if err := q.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := q.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a.groups != 0 || d.BindGroups() != 0 {
		t.Errorf("%d bind groups live (%d counted by the device) after %d views were released, want 0", a.groups, d.BindGroups(), views)
	}
}
