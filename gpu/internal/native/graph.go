package native

// This file implements driver.Replayer: a captured launch sequence as the
// library's own graph (a CUDA graph, a HIP graph), captured from the
// queue's stream once and launched whole at each replay, its uniform
// blocks in device memory of its own, written by one copy before it.

import (
	"context"
	"fmt"
	"slices"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

var _ driver.Replayer = (*queue)(nil)

// captureRelaxed is the capture mode (CUstreamCaptureMode,
// hipStreamCaptureMode) that lets other threads call the library during
// a capture: a goroutine may move between threads, and the capture is of
// one stream, which only the queue launches on.
const captureRelaxed = 2

// graph is a launch sequence prepared on a queue.
type graph struct {
	q        *queue
	launches []driver.Launch // the runtime's, patched between replays
	progs    []*program
	offs     []int   // each launch's uniform block in uniforms
	uniforms uintptr // device memory of the blocks, 0 where none has one
	host     []byte  // the blocks, staged for the copy
	exec     uintptr // the instantiated graph; 0 until the first replay or after a change
	grids    []xpu.Dim3
	bound    [][]driver.Buffer // what exec was captured with
	released bool
}

// Prepare checks launches as Launch would and allocates the device memory
// of their uniform blocks; the first replay captures the graph.
func (q *queue) Prepare(launches []driver.Launch) (driver.Graph, error) {
	d, l := q.d, q.d.lib
	if err := d.usable("Prepare"); err != nil {
		return nil, err
	}
	g := &graph{q: q, launches: launches, progs: make([]*program, len(launches)), offs: make([]int, len(launches))}
	n := 0
	for i, ln := range launches {
		pr, ok := ln.Program.(*program)
		if !ok || pr.d != d || pr.released {
			return nil, fmt.Errorf("%s: Prepare: launch %d: a program released or not of this device", l.Prefix, i)
		}
		if err := pr.takes(ln.Buffers, ln.Uniforms); err != nil {
			return nil, fmt.Errorf("%s: Prepare: launch %d: %w", l.Prefix, i, err)
		}
		g.progs[i], g.offs[i] = pr, n
		n += (pr.uniformSize + schema.PTXUniformAlign - 1) / schema.PTXUniformAlign * schema.PTXUniformAlign
	}
	g.host = make([]byte, n)
	if n > 0 {
		leave, err := d.Enter()
		if err != nil {
			return nil, err
		}
		defer leave()
		if err := d.check(l.MemAlloc.Name+"(graph uniforms)", l.MemAlloc.Call(unsafe.Pointer(&g.uniforms), uintptr(n))); err != nil {
			return nil, d.failed(err)
		}
	}
	return g, nil
}

// takes returns an error where a launch of p cannot bind bufs and
// uniforms.
func (p *program) takes(bufs []driver.Buffer, uniforms []byte) error {
	want := p.buffers
	if p.art.Fault {
		want++ // the fault word, last
	}
	if len(bufs) != want || len(uniforms) < p.uniformSize || p.uniformSize > maxUniformBytes {
		return fmt.Errorf("kernel %s: a launch of %d buffers and %d bytes of uniforms; the kernel takes %d and %d",
			p.name, len(bufs), len(uniforms), want, p.uniformSize)
	}
	return nil
}

// Replay copies the launches' uniform blocks to the graph's memory and
// launches the graph on the queue's stream, capturing it again first
// where a launch's grid or buffers changed since its capture.
func (g *graph) Replay(ctx context.Context) error {
	q := g.q
	d, l := q.d, q.d.lib
	if err := d.usable("Replay"); err != nil {
		return err
	}
	if g.released {
		return fmt.Errorf("%s: Replay of a released graph", l.Prefix)
	}
	leave, err := d.Enter()
	if err != nil {
		return err
	}
	defer leave()
	if g.exec != 0 && !g.current() {
		l.GraphExecDestroy.Call(g.exec)
		g.exec = 0
	}
	if g.exec == 0 {
		if err := g.capture(); err != nil {
			return err
		}
	}
	for i, ln := range g.launches {
		if n := g.progs[i].uniformSize; n > 0 {
			copy(g.host[g.offs[i]:g.offs[i]+n], ln.Uniforms)
		}
	}
	if len(g.host) > 0 {
		// The library stages pageable memory before the call returns, and
		// the copy runs in stream order, after the replays before it.
		if err := d.check(l.MemcpyHtoDAsync.Name+"(graph uniforms)", l.MemcpyHtoDAsync.Call(g.uniforms, unsafe.Pointer(&g.host[0]), uintptr(len(g.host)), q.stream)); err != nil {
			return d.failed(err)
		}
	}
	if err := q.timer.Begin(q); err != nil {
		return err
	}
	if err := d.check(l.GraphLaunch.Name, l.GraphLaunch.Call(g.exec, q.stream)); err != nil {
		return d.failed(err)
	}
	return q.timer.End(q)
}

// current reports whether the graph was captured with the launches'
// grids and buffers as they are now.
func (g *graph) current() bool {
	for i, ln := range g.launches {
		if ln.Groups.Norm() != g.grids[i] || !slices.Equal(ln.Buffers, g.bound[i]) {
			return false
		}
	}
	return true
}

// capture records the launches on the queue's stream into a graph of the
// library and instantiates it. The caller has entered the device.
func (g *graph) capture() error {
	q := g.q
	d, l := q.d, q.d.lib
	if err := d.check(l.StreamBeginCapture.Name, l.StreamBeginCapture.Call(q.stream, captureRelaxed)); err != nil {
		return d.failed(err)
	}
	var launchErr error
	for i, ln := range g.launches {
		if launchErr = q.launch(g.progs[i], ln.Groups, ln.Buffers, uint64(g.uniforms)+uint64(g.offs[i])); launchErr != nil {
			break
		}
	}
	// The capture ends whatever happened within it, so that the stream
	// leaves capture mode.
	var cg uintptr
	endErr := d.check(l.StreamEndCapture.Name, l.StreamEndCapture.Call(q.stream, unsafe.Pointer(&cg)))
	if cg != 0 {
		defer l.GraphDestroy.Call(cg)
	}
	if launchErr != nil {
		return d.failed(launchErr)
	}
	if endErr != nil {
		return d.failed(endErr)
	}
	if err := d.check(l.GraphInstantiate.Name, l.GraphInstantiate.Call(unsafe.Pointer(&g.exec), cg, 0)); err != nil {
		g.exec = 0
		return d.failed(err)
	}
	g.grids = g.grids[:0]
	g.bound = g.bound[:0]
	for _, ln := range g.launches {
		g.grids = append(g.grids, ln.Groups.Norm())
		g.bound = append(g.bound, slices.Clone(ln.Buffers))
	}
	return nil
}

// Release destroys the graph and frees its uniform memory, which the
// free does once the replays have run.
func (g *graph) Release() {
	if g.released {
		return
	}
	g.released = true
	d, l := g.q.d, g.q.d.lib
	leave, err := d.Enter()
	if err != nil {
		return
	}
	defer leave()
	if g.exec != 0 {
		l.GraphExecDestroy.Call(g.exec)
		g.exec = 0
	}
	if g.uniforms != 0 && !d.health.Lost() {
		d.failed(d.check(l.MemFree.Name+"(graph uniforms)", l.MemFree.Call(g.uniforms)))
	}
}
