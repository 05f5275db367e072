package gpu

import (
	"testing"
	"time"
)

func TestClockScale(t *testing.T) {
	for _, c := range []struct {
		dev, host time.Duration
		ok        bool
	}{
		{19 * time.Millisecond, 20 * time.Millisecond, true},
		{20 * time.Millisecond, 20 * time.Millisecond, true},
		{30 * time.Millisecond, 20 * time.Millisecond, false}, // more than the host saw
		{20 * time.Microsecond, 20 * time.Millisecond, false}, // a period misread by 1000
		{20 * time.Second, 20 * time.Millisecond, false},      // the other way
		{0, 20 * time.Millisecond, false},                     // no time at all
		{20 * time.Millisecond, 0, false},                     // no host time
	} {
		_, err := clockScale(c.dev, c.host)
		if (err == nil) != c.ok {
			t.Errorf("clockScale(%v, %v): %v, want ok=%v", c.dev, c.host, err, c.ok)
		}
	}
}
