package gpu

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/schema"
)

// Kernel faults. Where Go panics at run time and WGSL answers with a
// value (an integer division or remainder by zero, a shift by a negative
// signed count), a kernel's WGSL sets a bit of a fault word instead
// (its artifact's manifest sets Fault). Each stream binds a word of its own to every such
// launch, and reads it back at the flush points that wait for the launch
// (Sync, and a buffer's Read or Download; a Write, which the device
// queues behind the launches, does not wait for them): a nonzero word becomes
// an error wrapping ErrFault, and the word is cleared, so that the stream
// keeps working. The word is read only when a kernel that can fault was
// launched since the last check.

// ErrFault: a kernel failed while it ran where Go would have panicked
// (an integer division by zero, a negative shift count). The CPU
// backend's kernel failures (cpu.ErrKernel) wrap it too.
var ErrFault = driver.ErrFault

// faultWordBytes is the size of a fault word: one atomic u32.
const faultWordBytes = 4

// faultWord returns the stream's fault word, which a launch of k binds
// after its buffers, allocating it on first use. The caller holds s.mu.
func (s *Stream) faultWord(k *Kernel) (driver.Buffer, error) {
	if s.fault == nil {
		b, err := s.dev.drv.NewBuffer(faultWordBytes)
		if err != nil {
			return nil, fmt.Errorf("gpu: kernel %s on %s: fault word: %w", k.spec.Name, s.dev.backend, err)
		}
		s.fault = b
	}
	return s.fault, nil
}

// launchedFault records that a launch of k, which may fault, was
// recorded. The caller holds s.mu.
func (s *Stream) launchedFault(k *Kernel) {
	if !slices.Contains(s.faulty, k.spec.Name) {
		s.faulty = append(s.faulty, k.spec.Name)
	}
}

// checkFault reads the fault word back when a kernel that can fault was
// launched since the last check, waiting for the launches already
// flushed, clears it, and returns an ErrFault error naming the kernels
// when it was set. The caller holds s.mu and has flushed the stream.
func (s *Stream) checkFault(ctx context.Context) error {
	if len(s.faulty) == 0 || s.fault == nil {
		return nil
	}
	names := s.faulty
	s.faulty = nil
	var w [faultWordBytes]byte
	// Reading the word waits for the launches that may set it: a wait
	// the trace shows as one.
	if err := s.traced(trace.Wait, 0, "fault check", func() error { return s.fault.Read(ctx, 0, w[:]) }); err != nil {
		return fmt.Errorf("gpu: %s: reading the fault word: %w", s.dev.backend, err)
	}
	bits := binary.LittleEndian.Uint32(w[:])
	if bits == 0 {
		return nil
	}
	if err := s.fault.Write(0, make([]byte, faultWordBytes)); err != nil {
		return fmt.Errorf("gpu: %s: clearing the fault word: %w", s.dev.backend, err)
	}
	what := "kernel " + names[0]
	if len(names) > 1 {
		// One word serves the launches between two checks: any of them
		// may have set it.
		what = "one of kernels " + strings.Join(names, ", ")
	}
	err := fmt.Errorf("gpu: %s on %s: %s: %w", what, s.dev.backend, faultText(bits), ErrFault)
	s.Report(trace.Event{Kind: trace.Fault, Name: strings.Join(names, ", "), Start: time.Now(), Detail: err.Error()})
	return err
}

// faultText says what the bits of a fault word mean, in Go's words for
// its panics.
func faultText(bits uint32) string {
	var what []string
	for _, f := range []struct {
		bit  uint32
		text string
	}{
		{schema.FaultDivZero, "integer division by zero"},
		{schema.FaultNegativeShift, "negative shift amount"},
		{schema.FaultIndex, "index out of range"},
	} {
		if bits&f.bit != 0 {
			what = append(what, f.text)
			bits &^= f.bit
		}
	}
	if bits != 0 {
		what = append(what, fmt.Sprintf("fault %#x", bits))
	}
	return strings.Join(what, ", ")
}

// checkFaults checks the fault word of every stream of d; the caller
// holds d.life for reading and has flushed the streams.
func (d *Device) checkFaults(ctx context.Context) error {
	var errs []error
	for _, s := range d.streamList() {
		s.mu.Lock()
		if !s.closed {
			errs = append(errs, s.checkFault(ctx))
		}
		s.mu.Unlock()
	}
	return errors.Join(errs...)
}
