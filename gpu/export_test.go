package gpu

import (
	"context"
	"time"
)

// HoldProtected counts a launch with a deadline in flight on d, as a
// protected launch between admission and submission is, until the
// returned func is called: the tests of admission hold best-effort
// launches behind it.
func HoldProtected(d *Device) (release func()) {
	l := &launch{kernel: &Kernel{}, opts: LaunchOptions{Deadline: time.Now().Add(time.Hour)}}
	_ = d.admit(context.Background(), l) // a protected launch is admitted at once
	return func() { d.leave(l) }
}
