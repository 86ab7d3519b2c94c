package engine

import (
	"testing"
	"time"
)

// act is one input to the scheduler's walk at a time of a fake clock: a control request, or
// a wake.
type act struct {
	at   time.Duration
	kind ctlKind // a control request, or wake
	rate Rate    // for ctlRate
}

// wake is an act that is no control request: the walk wakes at its time and steps. With the
// timer running (fakeRun.ticks) it is a late wake: the timer did not fire since the act before.
const wake ctlKind = 0

// fakeRun walks a scheduler through acts on a fake clock, as Scheduler.Run does on the real one
// but with no goroutine and no sleeping: time is an argument.
type fakeRun struct {
	cfg *Config
	// ticks runs the timer: the walk wakes when it asks to (on the tick, never late) between
	// the acts, as Run's loop on an idle machine. Without it the walk wakes only at the acts.
	ticks bool
	// reader takes every job out of the backlog after each call, as idle workers do; without
	// it nobody does until the schedule has ended.
	reader bool

	r    *schedRun
	c    *Counters
	jobs []job // the jobs taken out of the backlog, in order
	// wakes counts the timer's wakes; late is the most a job taken by the reader waited
	// between its intended time and the call that handed it out.
	wakes int
	late  int64
	now   int64 // the time of the last call: when over, when the schedule ended
	over  bool  // the schedule has ended
}

// play walks the plan through acts, then ends the schedule with a stop at end unless it ended
// before, and takes what is left in the backlog.
func (f *fakeRun) play(t *testing.T, acts []act, end time.Duration) *fakeRun {
	t.Helper()
	f.begin()
	f.run(t, acts...)
	f.stop(end)
	return f
}

// begin starts the walk at 0.
func (f *fakeRun) begin() {
	f.c = NewCounters(len(f.cfg.Plan.Stages))
	f.r = NewScheduler(f.cfg, f.c, NewEventLog(time.Now()), time.Now()).walk()
	f.call(act{}) // Run's first step
}

// run hands the walk acts, in time order, the timer waking it between them.
func (f *fakeRun) run(t *testing.T, acts ...act) {
	t.Helper()
	for _, a := range acts {
		if a.kind != wake {
			f.tick(int64(a.at))
		}
		if f.over {
			t.Fatalf("the schedule ended at %s, before the act at %s", time.Duration(f.now), a.at)
		}
		f.call(a)
	}
}

// stop ends the schedule with a stop at end unless it ended before, and takes what is left in
// the backlog.
func (f *fakeRun) stop(end time.Duration) {
	if f.tick(int64(end)); !f.over {
		f.call(act{at: end, kind: ctlStop})
	}
	f.r.end(f.now)
	for j := range f.r.s.jobs {
		f.jobs = append(f.jobs, j)
	}
}

// tick wakes the walk whenever it asks to before until, if the timer runs.
func (f *fakeRun) tick(until int64) {
	for f.ticks && !f.over {
		at := time.Duration(f.now) + sleepFor(f.r.nextWake(), f.now, f.r.s.tick) // as Run sleeps
		if int64(at) >= until {
			return
		}
		f.wakes++
		f.call(act{at: at, kind: wake})
	}
}

// call hands the walk one input.
func (f *fakeRun) call(a act) {
	f.now = int64(a.at)
	if a.kind == wake {
		f.over = f.r.step(f.now)
	} else {
		f.over = f.r.control(control{kind: a.kind, rate: a.rate}, f.now)
	}
	for f.reader {
		select {
		case j := <-f.r.s.jobs:
			f.jobs = append(f.jobs, j)
			f.late = max(f.late, f.now-j.intended)
		default:
			return
		}
	}
}
