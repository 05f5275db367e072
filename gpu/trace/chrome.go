package trace

// This file writes and reads the Chrome trace-event format: a JSON object
// whose traceEvents are complete events ("X", a span) and instants ("i"),
// with a process per device and a thread per stream named by metadata
// events ("M").

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// chromeEvent is one entry of traceEvents.
type chromeEvent struct {
	Name  string      `json:"name"`
	Cat   string      `json:"cat,omitempty"`
	Ph    string      `json:"ph"`
	Scope string      `json:"s,omitempty"`
	Pid   int         `json:"pid"`
	Tid   int         `json:"tid"`
	Ts    float64     `json:"ts"` // microseconds since the trace's first event
	Dur   float64     `json:"dur,omitempty"`
	Args  *chromeArgs `json:"args,omitempty"`
}

// chromeArgs are what an event carries beyond its name and times, and a
// metadata event's name.
type chromeArgs struct {
	Name   string     `json:"name,omitempty"`
	Tier   string     `json:"tier,omitempty"`
	Grid   *[3]uint32 `json:"grid,omitempty"`
	Block  *[3]uint32 `json:"block,omitempty"`
	Detail string     `json:"detail,omitempty"`
}

// Chrome is a [Sink] that writes events to w as Chrome trace-event JSON,
// as they arrive; Close ends the JSON. Times are microseconds since the
// first event's start.
type Chrome struct {
	mu      sync.Mutex
	w       *bufio.Writer
	origin  time.Time
	devices map[string]int
	streams map[[2]int]bool
	n       int
	err     error
	closed  bool
	buf     []byte // put's encoding, reused
}

// NewChrome returns a Chrome that writes to w.
func NewChrome(w io.Writer) *Chrome {
	return &Chrome{w: bufio.NewWriter(w), devices: map[string]int{}, streams: map[[2]int]bool{}}
}

// Record writes e. A write error is kept and returned by Close; events
// after Close are dropped.
func (c *Chrome) Record(e Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.err != nil {
		return
	}
	if c.n == 0 {
		c.origin = e.Start
		c.err = c.raw(`{"displayTimeUnit":"ns","traceEvents":[`)
	}
	pid, ok := c.devices[e.Device]
	if !ok {
		pid = len(c.devices) + 1
		c.devices[e.Device] = pid
		c.put(chromeEvent{Name: "process_name", Ph: "M", Pid: pid, Args: &chromeArgs{Name: e.Device}})
	}
	if !c.streams[[2]int{pid, e.Stream}] {
		c.streams[[2]int{pid, e.Stream}] = true
		c.put(chromeEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: e.Stream, Args: &chromeArgs{Name: fmt.Sprintf("stream %d", e.Stream)}})
	}
	ce := chromeEvent{Name: e.Name, Cat: e.Kind.String(), Ph: "X", Pid: pid, Tid: e.Stream,
		Ts: micros(e.Start.Sub(c.origin)), Dur: micros(e.Dur)}
	if !e.span() {
		ce.Ph, ce.Scope = "i", "t"
	}
	a := chromeArgs{Tier: e.Tier, Detail: e.Detail}
	if e.Grid != [3]uint32{} {
		a.Grid, a.Block = &e.Grid, &e.Block
	}
	if a != (chromeArgs{}) {
		ce.Args = &a
	}
	c.put(ce)
}

// Close ends the JSON (an empty trace if no event came) and flushes it;
// it returns the first write error. It does not close the writer.
func (c *Chrome) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return c.err
	}
	c.closed = true
	if c.err != nil {
		return c.err
	}
	if c.n == 0 {
		c.err = c.raw(`{"displayTimeUnit":"ns","traceEvents":[`)
	}
	if c.err == nil {
		c.err = c.raw("]}\n")
	}
	if c.err == nil {
		c.err = c.w.Flush()
	}
	return c.err
}

// put appends one entry of traceEvents; the caller holds c.mu. It
// encodes by hand, not by reflection: it runs on the launch path.
func (c *Chrome) put(ce chromeEvent) {
	if c.err != nil {
		return
	}
	b := c.buf[:0]
	if c.n > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n{\"name\":"...)
	b = appendString(b, ce.Name)
	if ce.Cat != "" {
		b = append(b, `,"cat":`...)
		b = appendString(b, ce.Cat)
	}
	b = append(b, `,"ph":`...)
	b = appendString(b, ce.Ph)
	if ce.Scope != "" {
		b = append(b, `,"s":`...)
		b = appendString(b, ce.Scope)
	}
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(ce.Pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(ce.Tid), 10)
	b = append(b, `,"ts":`...)
	b = strconv.AppendFloat(b, ce.Ts, 'f', -1, 64)
	if ce.Dur != 0 {
		b = append(b, `,"dur":`...)
		b = strconv.AppendFloat(b, ce.Dur, 'f', -1, 64)
	}
	if a := ce.Args; a != nil {
		b = append(b, `,"args":{`...)
		sep := ""
		field := func(name, v string) {
			if v != "" {
				b = append(b, sep...)
				b = appendString(b, name)
				b = append(b, ':')
				b = appendString(b, v)
				sep = ","
			}
		}
		field("name", a.Name)
		field("tier", a.Tier)
		for _, d := range []struct {
			name string
			v    *[3]uint32
		}{{"grid", a.Grid}, {"block", a.Block}} {
			if d.v != nil {
				b = append(b, sep...)
				b = append(b, '"')
				b = append(b, d.name...)
				b = append(b, `":[`...)
				for i, x := range d.v {
					if i > 0 {
						b = append(b, ',')
					}
					b = strconv.AppendUint(b, uint64(x), 10)
				}
				b = append(b, ']')
				sep = ","
			}
		}
		field("detail", a.Detail)
		b = append(b, '}')
	}
	b = append(b, '}')
	c.buf = b
	_, c.err = c.w.Write(b)
	c.n++
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
		case r == utf8.RuneError:
			b = append(b, `\ufffd`...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

func (c *Chrome) raw(s string) error {
	_, err := c.w.WriteString(s)
	return err
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// Read returns the events of a Chrome trace-event JSON file as [Chrome]
// writes it, in file order, with their starts relative to the Unix epoch
// (a trace keeps only times since its first event). Entries of kinds
// this package does not write are skipped; a file that is not such JSON
// is an error.
func Read(r io.Reader) ([]Event, error) {
	var f struct {
		TraceEvents []chromeEvent `json:"traceEvents"`
	}
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("trace: reading a Chrome trace: %w", err)
	}
	if f.TraceEvents == nil {
		return nil, errors.New("trace: reading a Chrome trace: no traceEvents")
	}
	devices := map[int]string{}
	var es []Event
	for _, ce := range f.TraceEvents {
		switch {
		case ce.Ph == "M" && ce.Name == "process_name" && ce.Args != nil:
			devices[ce.Pid] = ce.Args.Name
			continue
		case ce.Ph != "X" && ce.Ph != "i":
			continue
		}
		k := kindOf(ce.Cat)
		if k == 0 {
			continue
		}
		e := Event{Kind: k, Device: devices[ce.Pid], Stream: ce.Tid, Name: ce.Name,
			Start: time.Unix(0, 0).Add(fromMicros(ce.Ts)), Dur: fromMicros(ce.Dur)}
		if a := ce.Args; a != nil {
			e.Tier, e.Detail = a.Tier, a.Detail
			if a.Grid != nil {
				e.Grid = *a.Grid
			}
			if a.Block != nil {
				e.Block = *a.Block
			}
		}
		es = append(es, e)
	}
	return es, nil
}

func fromMicros(us float64) time.Duration { return time.Duration(us * float64(time.Microsecond)) }
