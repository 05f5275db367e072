package cpu

// This file keeps the goroutines that run the launches' other workers:
// one that has run a job waits for the next a little while, spinning,
// then ends. Launches in a row hand their jobs to the running ones; a
// launch that finds none starts new ones. No goroutine outlives its
// spin, so a device needs no closing.

import (
	"runtime"
	"sync/atomic"
	"time"
)

// helperSpin is how long a helper waits for another job: longer than the
// gap between two launches of one stream, far shorter than a time the
// spinning costs anything noticeable.
const helperSpin = 50 * time.Microsecond

var helpers struct {
	jobs chan func()
	idle atomic.Int32 // helpers waiting for a job
}

func init() { helpers.jobs = make(chan func(), 256) }

// hand runs job on a waiting helper, or on a new one.
func hand(job func()) {
	if helpers.idle.Load() > 0 {
		select {
		case helpers.jobs <- job:
			return
		default:
		}
	}
	go runHelper(job)
}

// runHelper runs job, then the jobs handed to it while it waits. A job left
// in the channel when every helper has ended runs on the next helper:
// one of a launch that has ended does nothing (share.join).
func runHelper(job func()) {
	for job != nil {
		job()
		job = nil
		helpers.idle.Add(1)
		for start := time.Now(); job == nil && time.Since(start) < helperSpin; {
			select {
			case job = <-helpers.jobs:
			default:
				runtime.Gosched()
			}
		}
		helpers.idle.Add(-1)
		if job == nil {
			select { // one that came as it stopped waiting
			case job = <-helpers.jobs:
			default:
			}
		}
	}
}
