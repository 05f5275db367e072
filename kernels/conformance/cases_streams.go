package conformance

// This file holds the suite's cases of the runtime's streams: sequences
// of launches that a graph replays (captured explicitly, or by the
// stream itself) and that two streams make on the same buffers, each
// beside the same sequence run launch by launch on the reference
// runner. Their values are small integers, which float32 holds exactly
// however the device rounds or fuses a*x+y, so that they compare bit for
// bit.

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// StreamCases returns the cases of the runtime's streams.
func StreamCases() []*gputest.Case {
	const launches, replays = 3, 4
	return []*gputest.Case{
		{
			Label: "Saxpy replayed", Kernel: SaxpyKernel, Tol: gputest.Exact, Setup: saxpySteps,
			// A graph of three launches, replayed four times with other
			// scalars patched in each time.
			Launch: func(s *gpu.Stream, groups xpu.Dim3, args []any) error {
				y, x, a, n := saxpyArgs(args)
				g, err := s.Capture(func() error {
					for i := range launches {
						if err := LaunchSaxpy(s, groups, y, x, a+float32(i), n); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					return err
				}
				defer g.Release()
				for r := range replays {
					for i := range launches {
						if err := g.SetScalar(i, "a", a+float32(i-r)); err != nil {
							return err
						}
					}
					if err := g.Replay(); err != nil {
						return err
					}
				}
				return nil
			},
			Reference: saxpyRounds(replays, launches),
		},
		{
			Label: "Saxpy replayed by the stream", Kernel: SaxpyKernel, Tol: gputest.Exact, Setup: saxpySteps,
			// Eight segments of the same three launches between flushes,
			// other scalars each time: a stream that replays by itself
			// does from the fourth.
			Launch: func(s *gpu.Stream, groups xpu.Dim3, args []any) error {
				y, x, a, n := saxpyArgs(args)
				t, err := s.Device().NewStream()
				if err != nil {
					return err
				}
				defer t.Close()
				for seg := range 2 * replays {
					for i := range launches {
						if err := LaunchSaxpy(t, groups, y, x, a+float32(i-seg), n); err != nil {
							return err
						}
					}
					if err := t.Flush(); err != nil {
						return err
					}
				}
				return t.Sync()
			},
			Reference: saxpyRounds(2*replays, launches),
		},
		{
			Label: "Saxpy on two streams", Kernel: SaxpyKernel, Tol: gputest.Exact, Setup: saxpySteps,
			// Launches that alternate between two streams, each reading
			// what the other wrote, and the second stream flushed first:
			// the runtime orders each after the one before.
			Launch: func(s *gpu.Stream, groups xpu.Dim3, args []any) error {
				y, x, a, n := saxpyArgs(args)
				t, err := s.Device().NewStream()
				if err != nil {
					return err
				}
				defer t.Close()
				for i := range 2 * launches {
					var err error
					if i%2 == 0 {
						err = LaunchSaxpy(s, groups, y, x, a, n)
					} else {
						err = LaunchSaxpy(t, groups, x, y, -a, n)
					}
					if err != nil {
						return err
					}
				}
				return t.Flush()
			},
			Reference: func(d *gpu.Device, groups xpu.Dim3, args []any) error {
				a := gputest.At[float32](args, 2)
				for i := range 2 * launches {
					var err error
					if i%2 == 0 {
						err = d.Reference(SaxpyKernel, groups, args[0], args[1], a, args[3])
					} else {
						err = d.Reference(SaxpyKernel, groups, args[1], args[0], -a, args[3])
					}
					if err != nil {
						return err
					}
				}
				return nil
			},
		},
	}
}

// saxpyRounds returns the reference of rounds rounds of launches
// launches each, the i-th of round r with a+i-r.
func saxpyRounds(rounds, launches int) func(d *gpu.Device, groups xpu.Dim3, args []any) error {
	return func(d *gpu.Device, groups xpu.Dim3, args []any) error {
		for r := range rounds {
			for i := range launches {
				if err := d.Reference(SaxpyKernel, groups, args[0], args[1], gputest.At[float32](args, 2)+float32(i-r), args[3]); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// saxpySteps makes the inputs of the stream cases: y and x of small
// integers, a of 1 or 2.
func saxpySteps(r *rand.Rand) gputest.Inputs {
	n := 300 + r.IntN(700)
	small := func() []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.IntN(9) - 4)
		}
		return v
	}
	return gputest.Inputs{Groups: line(uint32(n), 256), Args: []gputest.Arg{
		gputest.Buffer(small()), gputest.Buffer(small()),
		gputest.Scalar(float32(1 + r.IntN(2))), gputest.Scalar(uint32(n)),
	}}
}

// saxpyArgs returns the device arguments of a stream case.
func saxpyArgs(args []any) (y, x *gpu.Buffer[float32], a float32, n uint32) {
	return buf[float32](args, 0), buf[float32](args, 1), gputest.At[float32](args, 2), gputest.At[uint32](args, 3)
}
