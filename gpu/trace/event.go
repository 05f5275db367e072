package trace

import (
	"fmt"
	"time"
)

// A Kind says what an event reports.
type Kind uint8

const (
	// Launch: a kernel launch was recorded on a stream (on the CPU, where
	// a launch runs as it is recorded, its span is the run).
	Launch Kind = iota + 1
	// Host: host code ran on a stream's buffers (gpu.Stream.RunHost).
	Host
	// Flush: a stream submitted what it had recorded.
	Flush
	// Wait: a stream waited for its submitted work.
	Wait
	// Adapter: the kernel library converted an operand before a kernel.
	Adapter
	// Fallback: no kernel took a call, and the operation's reference ran.
	Fallback
	// Refusal: a launch or a call was refused; Detail says by which rule.
	Refusal
	// Fault: a kernel reported a fault (an out-of-bounds access, a trap).
	Fault
	// Transfer: a buffer was written from the host or read back (after
	// the device's streams were flushed and, for a read, waited for).
	Transfer
	// Compile: the device compiled a kernel, on its first use there.
	Compile
)

var kindNames = [...]string{Launch: "launch", Host: "host", Flush: "flush", Wait: "wait", Adapter: "adapter", Fallback: "fallback", Refusal: "refusal", Fault: "fault", Transfer: "transfer", Compile: "compile"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// kindOf is the Kind named s, or 0.
func kindOf(s string) Kind {
	for k, n := range kindNames {
		if n == s && n != "" {
			return Kind(k)
		}
	}
	return 0
}

// An Event is one thing a run did. A span has a duration; an instant
// (an adapter, a fallback, a refusal, a fault) has none.
type Event struct {
	Kind   Kind
	Device string // the device's backend and name: "webgpu llvmpipe (LLVM 15.0.6, 256 bits)"
	Stream int    // the stream's number on its device; 0 is the default stream
	Name   string // the kernel, host function, transfer or adapter, or the operation's key
	Tier   string // the code the device ran: "wgsl", "go", "llvm-host x86-64-v4", ...
	Grid   [3]uint32
	Block  [3]uint32
	Start  time.Time
	Dur    time.Duration
	Detail string // a plan's explanation, a refusal's or a fault's error
}

// A Sink receives events. Its Record must be safe for concurrent use: a
// device's streams report from the goroutines that use them. It runs on
// the launch path, so it should return quickly.
type Sink interface {
	Record(Event)
}

// Func is a function as a [Sink].
type Func func(Event)

// Record calls f(e).
func (f Func) Record(e Event) { f(e) }
