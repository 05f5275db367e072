package xpu

// This file is the reference runner's wave rendezvous: the lanes of a wave
// meet at each wave verb and exchange their values through shared memory
// of the runner, goroutine to goroutine.

import "sync"

// waveSync is the rendezvous of one wave of a block. A round collects the
// values of the live lanes; it completes when every live lane has arrived,
// and every lane of the round then reads the round's values. A lane that
// returns leaves the wave, so the others are not held by it.
type waveSync struct {
	mu      sync.Mutex
	cond    sync.Cond
	live    int
	arrived int
	gen     uint64
	cur     []any // the round being collected; nil entries: inactive lanes
	done    []any // the values of the last completed round
}

func newWaveSync(lanes, width int) *waveSync {
	w := &waveSync{live: lanes, cur: make([]any, width)}
	w.cond.L = &w.mu
	return w
}

// exchange contributes v for lane and returns the round's values.
func (w *waveSync) exchange(lane int, v any) []any {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cur[lane] = v
	w.arrived++
	if w.arrived >= w.live {
		w.complete()
		return w.done
	}
	for gen := w.gen; gen == w.gen; {
		w.cond.Wait()
	}
	return w.done
}

// leave removes a returned lane from the wave.
func (w *waveSync) leave() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.live--
	if w.arrived > 0 && w.arrived >= w.live {
		w.complete()
	}
}

func (w *waveSync) complete() {
	w.done = w.cur
	w.cur = make([]any, len(w.cur))
	w.arrived = 0
	w.gen++
	w.cond.Broadcast()
}

// waveOf returns the rendezvous of the wave of the work-item at local
// index li, making the block's waves on first use.
func (b *block) waveOf(li uint32) *waveSync {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.waves == nil {
		n := int(b.size.Count())
		wd := int(b.wave)
		for base := 0; base < n; base += wd {
			b.waves = append(b.waves, newWaveSync(min(wd, n-base), wd))
		}
	}
	return b.waves[li/b.wave]
}
