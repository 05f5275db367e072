package xpu

// This file is the reference runner's wave rendezvous: the lanes of a
// wave meet at each wave verb and exchange their values through the
// block's scheduler.

import (
	"runtime"
	"strings"
)

// waveRound collects the values of one wave's live lanes for one verb.
// It completes when every live lane has arrived; every lane of the round
// then reads its values. A lane that returns leaves the wave, so the
// others are not held by it (and the block fails: see complete).
type waveRound struct {
	base, lanes int // the wave's first LocalIndex and its lane count
	live        int // lanes not returned
	arrived     int
	cur         []any // nil entries: inactive lanes
}

// waveOf returns the rendezvous of w's wave, making the block's waves on
// first use.
func (b *block) waveOf(w *workItem) *waveRound {
	if b.waves == nil {
		n, wd := len(b.items), int(b.l.wave)
		for base := 0; base < n; base += wd {
			lanes := min(wd, n-base)
			live := 0
			for _, x := range b.items[base : base+lanes] {
				if x.state != itemDone {
					live++
				}
			}
			b.waves = append(b.waves, &waveRound{base: base, lanes: lanes, live: live, cur: make([]any, wd)})
		}
	}
	return b.waves[w.index/b.l.wave]
}

// exchange contributes v for w's lane and returns the round's values.
// It records the verb's call site, the first caller outside package xpu,
// and the calls that led there.
func (w *workItem) exchange(v any) []any {
	var pcs [8]uintptr
	for _, pc := range pcs[:runtime.Callers(3, pcs[:])] {
		w.site = pc
		if !strings.HasPrefix(w.blk.l.funcAt(pc), "github.com/goxpu/xpu.") {
			break
		}
	}
	w.path = w.blk.l.callPath(3)
	w.enterScheduler()
	r := w.blk.waveOf(w)
	r.cur[w.index%w.blk.l.wave] = v
	r.arrived++
	w.state = itemWave
	w.yield()
	return w.waveIn
}

// arrive completes w's round when w was its last live lane.
func (b *block) arrive(w *workItem) {
	if r := b.waveOf(w); r.arrived >= r.live {
		b.complete(r)
	}
}

// leave removes a returned work-item from its wave.
func (b *block) leave(w *workItem) {
	if b.waves == nil {
		return
	}
	r := b.waveOf(w)
	r.live--
	if r.arrived > 0 && r.arrived >= r.live {
		b.complete(r)
	}
}

// complete hands the round's values to its lanes and readies them. A
// round that lanes of the wave did not reach because they returned, or
// reached at different wave verbs, is a wave verb in non-uniform control
// flow: it fails the block.
func (b *block) complete(r *waveRound) {
	if !b.aborted {
		var first *workItem
		for _, x := range b.items[r.base : r.base+r.lanes] {
			switch {
			case x.state == itemDone:
				b.abort(ruleErr(ruleWave, "a wave verb is reached by some lanes of a wave but not by local %v, which returned", x.local))
				return
			case x.state != itemWave:
			case first == nil:
				first = x
			case x.path != first.path:
				b.abort(ruleErr(ruleWave, "lanes of a wave wait at different wave verbs: local %v at %s, local %v at %s",
					first.local, siteOf(first.site), x.local, siteOf(x.site)))
				return
			}
		}
	}
	vals := r.cur
	for _, x := range b.items[r.base : r.base+r.lanes] {
		if x.state == itemWave {
			x.waveIn = vals
			x.state = itemReady
		}
	}
	r.cur = make([]any, len(vals))
	r.arrived = 0
}
