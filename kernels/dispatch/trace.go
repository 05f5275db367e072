package dispatch

// An EventKind says what a trace event reports.
type EventKind uint8

const (
	// Adapted: a plan inserted an adapter before its kernel.
	Adapted EventKind = iota + 1
	// FellBack: no kernel matched, and the operation's reference ran.
	FellBack
	// Refused: no kernel matched, and nothing stood in.
	Refused
)

func (k EventKind) String() string {
	switch k {
	case Adapted:
		return "adapted"
	case FellBack:
		return "fell back"
	case Refused:
		return "refused"
	}
	return "EventKind(?)"
}

// An Event is what the registry's trace sink sees of a call that did not
// run a matching kernel directly.
type Event struct {
	Kind    EventKind
	Key     Key
	Kernel  string // the kernel run, for Adapted
	Adapter string // the adapter inserted, for Adapted
	Operand string // the operand it converted, for Adapted
	Detail  string // the plan's or the refusal's explanation
}
