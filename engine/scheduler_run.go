package engine

import (
	"math"
	"time"
)

// schedRun is the walk through the plan: the scheduler goroutine's private state. Only
// Scheduler.Run touches it, so it needs no locks, but for a stepper's owner (an event loop
// stepping it at its wakes, scheduler_stepped.go), which Run shares it with under walkMu;
// what others may read is published through atomics on the Scheduler. It never reads a clock: every call takes the time (now, ns since
// the run's start), so tests walk it on a fake clock exactly as Run does on the real one.
type schedRun struct {
	s          *Scheduler
	stages     []Stage
	stage      int
	stageStart int64 // ns since start when the current stage began
	stageEnd   int64 // ns since start; math.MaxInt64 when open-ended
	seg        segment
	target     Rate // the full (unsharded) rate being sent now
	paused     bool
	held       bool
	stillSince int64 // when the stage's time last stopped (paused or held since)
	scheduled  int64 // all stages, for MaxRequests
	ended      int64 // when the plan ran out (its last stage's planned end); -1 before
}

const noEnd = math.MaxInt64

// walk begins a walk through the plan: its first stage starts at 0.
func (s *Scheduler) walk() *schedRun {
	r := &schedRun{s: s, stages: s.cfg.Plan.Stages, ended: -1}
	r.enterStage(0, 0)
	return r
}

// enterStage starts stage i at time at (ns). Timed stage changes pass the old stage's planned end,
// not "now", so a late wake never shifts the rest of the plan.
func (r *schedRun) enterStage(i int, at int64) {
	st := r.stages[i]
	r.stage = i
	r.stageStart = at
	r.stageEnd = noEnd
	if st.Duration > 0 {
		r.stageEnd = at + int64(st.Duration)
	}
	r.target = st.Rate
	r.seg = r.s.newSegment(at, st.Rate)
	r.s.stage.Store(int32(i))
	r.event(at, "stage", stageLabel(i, len(r.stages), st))
	// A pause or a hold outlives a jump to another stage (next/previous): the new stage is
	// paused or held from its start, so only its own paused or held time moves its end.
	r.stillSince = at
	if !r.paused {
		r.s.counters.clock.enter(i, time.Duration(at))
	}
	r.publish(at)
}

// step sends everything due by now and moves through stages whose time is up. It reports true
// when the schedule has ended.
func (r *schedRun) step(now int64) bool {
	if r.paused {
		return false
	}
	for {
		limit := now
		if !r.held && r.stageEnd <= now {
			limit = r.stageEnd - 1 // sends due before the stage ended belong to it
		}
		if r.emit(now, limit) {
			return true
		}
		if r.held || r.stageEnd > now {
			return false
		}
		if r.stage+1 >= len(r.stages) {
			r.ended = r.stageEnd
			return true
		}
		r.enterStage(r.stage+1, r.stageEnd)
	}
}

// emit hands out every send due at or before limit. It reports true when MaxRequests is reached.
func (r *schedRun) emit(now, limit int64) bool {
	if r.s.cfg.Mode == ModeClosed || r.seg.rate <= 0 {
		return false
	}
	sc := r.s.counters.Stage(r.stage)
	for k := 0; k < maxEmitPerPass; k++ {
		due := r.seg.due()
		if due > limit {
			return false
		}
		if late := now - ceilTick(due, r.s.tick); k == 0 && late > int64(DefaultSendTick) {
			// Later than the tick this send was due at: the scheduler woke late (a busy CPU, a
			// pause of the process), and everything due since went out late by up to this much
			// more than the grain. The grain's own wait (up to a tick, the user's send_tick) is
			// not the tester falling behind: the send lag shows it, this book does not.
			r.s.lags.record(int(now/int64(time.Second)), time.Duration(late))
		}
		r.scheduled++
		if f := r.s.fan; f != nil {
			f.dispatch(due, uint16(r.stage)) // to every target, counted on each one's books
		} else {
			sc.Scheduled.Add(1)
			select {
			case r.s.jobs <- job{intended: due, stage: uint16(r.stage)}:
			default:
				sc.Dropped.Add(1) // backlog full: counted, never silently skipped
			}
		}
		r.seg.n++
		if max := r.s.maxRequests; max > 0 && r.scheduled >= max {
			// The last request is out: the schedule is over now, not when another would be due.
			r.s.finish("", now)
			return true
		}
	}
	return false
}

// end ends the schedule at now and closes the backlog. The last stage's active time ends at its
// planned end when the plan ran out, else at now (a stop, the request count, a cancel).
func (r *schedRun) end(now int64) {
	at := now
	if r.ended >= 0 {
		at = r.ended
	}
	r.s.counters.clock.leave(time.Duration(at))
	r.s.finish("", now)
	if r.s.fan != nil {
		r.s.fan.close() // every target's backlog, the first's (jobs) among them
		return
	}
	close(r.s.jobs)
}

// nextWake is when step has work next: the next send or the stage's end; noEnd when nothing
// is due until a control request comes (paused, or a zero rate without an end).
func (r *schedRun) nextWake() int64 {
	if r.paused {
		return noEnd
	}
	next := int64(noEnd)
	if r.s.cfg.Mode != ModeClosed && r.seg.rate > 0 {
		next = r.seg.due()
	}
	if !r.held && r.stageEnd < next {
		next = r.stageEnd
	}
	return next
}

// control carries out a control request that arrived at now: first everything due before it,
// under the plan as it was (the wake for those sends may not have come yet: a busy CPU, or a
// request just after a send), then the request. Applied first, a stage change or a stop would
// drop those sends without a trace and cut the old stage's rate short. A send due at now
// itself is the new plan's, as at a timed stage change. True means the schedule ends.
func (r *schedRun) control(c control, now int64) bool {
	return r.step(now-1) || r.apply(c, now)
}

// apply carries out one control request at now and records it as an event of its kind; true
// means the schedule ends.
func (r *schedRun) apply(c control, now int64) bool {
	switch c.kind {
	case ctlRate:
		r.event(now, c.kind.String(), "target "+c.rate.String()+" (was "+r.target.String()+")")
		r.target = c.rate
		r.seg = r.s.newSegment(now, c.rate)
	case ctlPause:
		if !r.paused {
			r.freeze(true, r.held, now)
			r.s.counters.clock.leave(time.Duration(now))
			r.s.counters.pauses.pause(time.Duration(now))
			r.event(now, c.kind.String(), "sending paused")
		}
	case ctlResume:
		if r.paused {
			r.freeze(false, r.held, now)
			r.seg = r.s.newSegment(now, r.target)
			r.s.counters.clock.enter(r.stage, time.Duration(now))
			r.s.counters.pauses.resume(time.Duration(now))
			r.event(now, c.kind.String(), "sending resumed")
		}
	case ctlHold:
		if !r.held {
			r.freeze(r.paused, true, now)
			r.event(now, c.kind.String(), "stage held")
		}
	case ctlRelease:
		if r.held {
			r.freeze(r.paused, false, now)
			r.event(now, c.kind.String(), "stage released")
		}
	case ctlNext:
		if r.stage+1 < len(r.stages) {
			r.event(now, c.kind.String(), "manual next stage"+r.modeNote())
			r.enterStage(r.stage+1, now)
		} else {
			r.event(now, c.kind.String(), "already at the last stage")
		}
	case ctlPrev:
		if r.stage > 0 {
			r.event(now, c.kind.String(), "manual previous stage"+r.modeNote())
			r.enterStage(r.stage-1, now)
		} else {
			r.event(now, c.kind.String(), "already at the first stage")
		}
	case ctlStop:
		r.event(now, c.kind.String(), r.s.StopReason())
		return true
	}
	r.publish(now)
	return false
}

// event records what the walk did at at (ns since the start).
func (r *schedRun) event(at int64, kind, detail string) {
	r.s.events.addAt(time.Duration(at), kind, detail)
}

// freeze sets paused and held at now. Time paused or held does not count against the stage:
// it stands still from the moment either goes on until both are off again, and its end moves
// by that stretch, counted once however a pause and a hold overlap.
func (r *schedRun) freeze(paused, held bool, now int64) {
	was := r.paused || r.held
	r.paused, r.held = paused, held
	switch {
	case !was && (paused || held):
		r.stillSince = now
	case was && !paused && !held && r.stageEnd != noEnd:
		r.stageEnd += now - r.stillSince
	}
}

// modeNote says, in a next/previous event, that the jump keeps the run paused or held: the user
// moved the plan, not the mode (h and space still undo those).
func (r *schedRun) modeNote() string {
	switch {
	case r.paused && r.held:
		return " (still paused and held)"
	case r.paused:
		return " (still paused)"
	case r.held:
		return " (still held)"
	}
	return ""
}

func (r *schedRun) publish(now int64) {
	st := &PlanState{
		State:      StateRunning,
		Stage:      r.stage,
		StageCount: len(r.stages),
		StageStart: time.Duration(r.stageStart),
		TargetRate: r.target,
	}
	switch {
	case r.paused:
		st.State = StatePaused
	case r.held:
		st.State = StateHeld
	}
	if r.stageEnd != noEnd && !r.held {
		st.StageLeft = time.Duration(r.stageEnd - now)
	}
	r.s.stageEnd.Store(r.stageEnd)
	r.s.state.Store(st)
}
