package trace

import (
	"cmp"
	"slices"
	"time"
)

// A Total is the time the spans of one name took in all: a kernel's
// launches, a host call's, or a stream's flushes or waits.
type Total struct {
	Name  string // the kernel or host call; "flush" or "wait" for those
	Count int
	Time  time.Duration
}

// Totals sums the spans of es by name, most time first (then by name);
// instants are not counted.
func Totals(es []Event) []Total {
	at := map[string]int{}
	var ts []Total
	for _, e := range es {
		if !e.span() {
			continue
		}
		i, ok := at[e.label()]
		if !ok {
			i = len(ts)
			at[e.label()] = i
			ts = append(ts, Total{Name: e.label()})
		}
		ts[i].Count++
		ts[i].Time += e.Dur
	}
	slices.SortFunc(ts, func(a, b Total) int { return cmp.Or(cmp.Compare(b.Time, a.Time), cmp.Compare(a.Name, b.Name)) })
	return ts
}

// span reports whether e has a duration to draw: a launch, a host call,
// a transfer or a compile always (recording a launch on WebGPU may take
// no measurable time), others when they took some.
func (e Event) span() bool {
	return e.Dur > 0 || e.Kind == Launch || e.Kind == Host || e.Kind == Transfer || e.Kind == Compile
}

// label is what e's span is called: its name, or for a flush or a wait
// its kind (a fault check's wait apart), and for a compile "compile" and
// the kernel's name.
func (e Event) label() string {
	switch e.Kind {
	case Flush:
		return e.Kind.String()
	case Wait:
		if e.Name == "fault check" {
			return "wait for a fault check"
		}
		return e.Kind.String()
	case Compile:
		return "compile " + e.Name
	}
	return e.Name
}
