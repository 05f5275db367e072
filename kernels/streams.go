package kernels

import (
	"runtime"
	"sync"
	"weak"

	"github.com/goxpu/xpu/gpu"
)

// A perStream holds a value for each stream and tag (a tuner, say) that
// owns scratch a stream's calls share in order: made at first use,
// remade when it no longer fits a call, released when its stream is
// collected.
type perStream[V any] struct {
	m       sync.Map // streamKey -> V
	release func(V)
}

type streamKey struct {
	s   weak.Pointer[gpu.Stream]
	tag any
}

// get returns the value of s and tag, made by make when there is none or
// fits says the one there does not fit; the one it replaces is released
// after the stream's work, which may use its scratch, is done.
func (c *perStream[V]) get(s *gpu.Stream, tag any, fits func(V) bool, make func() (V, error)) (V, error) {
	key := streamKey{weak.Make(s), tag}
	if v, ok := c.m.Load(key); ok && fits(v.(V)) {
		return v.(V), nil
	}
	v, err := make()
	if err != nil {
		return v, err
	}
	old, had := c.m.Swap(key, v)
	if had {
		if err := s.Sync(); err != nil {
			c.m.CompareAndSwap(key, v, old)
			c.release(v)
			var none V
			return none, err
		}
		c.release(old.(V))
	} else {
		runtime.AddCleanup(s, func(k streamKey) {
			if v, ok := c.m.LoadAndDelete(k); ok {
				c.release(v.(V))
			}
		}, key)
	}
	return v, nil
}
