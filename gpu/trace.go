package gpu

// This file reports a device's work to the trace sink the program sets
// (package gpu/trace): each launch, host call, flush and wait as a span,
// each refused launch and each fault as an instant. A device without a
// sink pays one atomic load an operation.

import (
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/trace"
)

// sinkBox holds a sink behind an atomic pointer.
type sinkBox struct{ trace.Sink }

// SetTrace makes s the sink of every stream of the device from now on;
// nil turns tracing off. The sink's Record runs on the launch path, from
// the goroutines that use the streams.
func (d *Device) SetTrace(s trace.Sink) {
	if d == nil {
		return
	}
	if s == nil {
		d.sink.Store(nil)
		return
	}
	d.sink.Store(&sinkBox{s})
}

// Trace returns the device's trace sink, nil when none is set: the
// kernel library reports its adapters, fallbacks and refusals to it.
func (d *Device) Trace() trace.Sink {
	if d == nil {
		return nil
	}
	if b := d.sink.Load(); b != nil {
		return b.Sink
	}
	return nil
}

// TraceName is how the device's events name it: its backend and name.
func (d *Device) TraceName() string {
	if d == nil {
		return ""
	}
	return string(d.backend) + " " + d.info.Name
}

// ID returns the stream's number on its device, as its trace events
// name it: 0 for the default stream, then 1, 2, ... in order of
// [Device.NewStream].
func (s *Stream) ID() int {
	if s == nil {
		return 0
	}
	return s.id
}

// Report hands e to the device's trace sink, if one is set, as an event
// of stream s: its Device and Stream are set to s's. The kernel library
// reports its adapters, fallbacks and refusals by it.
func (s *Stream) Report(e trace.Event) {
	if s == nil || s.dev == nil {
		return
	}
	sink := s.dev.Trace()
	if sink == nil {
		return
	}
	e.Device, e.Stream = s.dev.TraceName(), s.id
	sink.Record(e)
}

// traced runs f and reports it as a span of kind k named name, or, when
// f fails and fail is not 0, as an instant of kind fail with its error.
func (s *Stream) traced(k, fail trace.Kind, name string, f func() error) error {
	if s.dev.Trace() == nil {
		return f()
	}
	start := time.Now()
	err := f()
	e := trace.Event{Kind: k, Name: name, Start: start, Dur: time.Since(start)}
	if err != nil && fail != 0 {
		e = trace.Event{Kind: fail, Name: name, Start: start, Detail: err.Error()}
	}
	s.Report(e)
	return err
}

// tier names the code a launch ran: its target, and the instruction set
// level of a native one.
func tier(l *launch) string {
	if l.art == nil {
		return ""
	}
	if isa := l.art.Selector.ISA; isa != "" {
		return string(l.art.Target) + " " + isa
	}
	return string(l.art.Target)
}

func dim(d xpu.Dim3) [3]uint32 { return [3]uint32{d.X, d.Y, d.Z} }
