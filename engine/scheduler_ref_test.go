package engine

import (
	"math/big"
	"time"
)

// refWalk is the exact reference the scheduler's walk is held against (k6's
// TestCompareCalImplementation, search/oracle_test.go here): the plan, the control requests and
// the shard worked out from the contract, in exact arithmetic, sharing no code with
// scheduler*.go. The contract:
//
//   - A stretch of constant rate R that began at t0 (a stage's start, a rate change, a resume)
//     sends number j at t0 + j/R, to the whole ns below; a stage's sends are those due before it
//     ends. Nothing is sent while paused, and a resume starts afresh (no catch-up).
//   - A stage of duration D ends once it has run for D: time paused or held does not count.
//   - A control request at t comes after everything due before t, and before a stage end at t.
//   - Shard s of n (from 0) sends the plan's sends s, s+n, s+2n, … of every stretch.
//   - With a request limit the schedule is over as its last request is handed out.
type refWalk struct {
	stages        []Stage
	shard, shards int64
	max           int64 // this shard's share of the request limit; 0: none

	now     int64 // ns since the start
	stage   int
	ran     int64 // how long the current stage has run: neither paused nor held
	paused  bool
	held    bool
	from    int64 // when the current stretch of constant rate began
	rate    Rate  // its rate
	j       int64 // its next send number this shard takes
	jobs    []job // every send handed out, in order
	entries []entered
	end     int64 // when the schedule was over; -1 while it goes
}

// entered is a stage entered at a time (ns since the start).
type entered struct {
	stage int
	at    int64
}

// newRefWalk walks shard (from 0) of shards, taking limit requests at most (0: no limit).
func newRefWalk(stages []Stage, shard, shards, limit int64) *refWalk {
	w := &refWalk{stages: stages, shard: shard, shards: shards, max: limit, end: -1}
	w.enter(0, 0)
	return w
}

func (w *refWalk) enter(i int, at int64) {
	w.stage, w.ran = i, 0
	w.entries = append(w.entries, entered{i, at})
	w.stretch(at, w.stages[i].Rate)
}

// stretch begins a stretch of constant rate r at at.
func (w *refWalk) stretch(at int64, r Rate) {
	w.from, w.rate, w.j = at, r, w.shard
}

// due is when send j of the current stretch is due: from + j·10⁹/rate ns, to the whole ns below.
func (w *refWalk) due(j int64) int64 {
	q := new(big.Rat).SetInt64(j)
	q.Mul(q, big.NewRat(1e9, 1))
	q.Quo(q, new(big.Rat).SetFloat64(float64(w.rate)))
	ns := new(big.Int).Quo(q.Num(), q.Denom()) // both positive: Quo rounds down
	return w.from + ns.Int64()
}

// running is whether the current stage's time counts.
func (w *refWalk) running() bool { return !w.paused && !w.held }

// until moves the clock to t: it hands out the sends due before t and ends the stages whose
// time is up before t.
func (w *refWalk) until(t int64) {
	for w.end < 0 {
		stop, ends := t, false
		if d := int64(w.stages[w.stage].Duration); d > 0 && w.running() && w.now+d-w.ran < t {
			stop, ends = w.now+d-w.ran, true
		}
		w.send(stop)
		if w.end >= 0 {
			return
		}
		if w.running() {
			w.ran += stop - w.now
		}
		w.now = stop
		if !ends {
			return
		}
		if w.stage+1 == len(w.stages) {
			w.end = stop
			return
		}
		w.enter(w.stage+1, stop)
	}
}

// send hands out the current stretch's sends due before t.
func (w *refWalk) send(t int64) {
	if w.paused || w.rate == 0 {
		return
	}
	for d := w.due(w.j); d < t; d = w.due(w.j) {
		w.jobs = append(w.jobs, job{intended: d, stage: uint16(w.stage)})
		w.j += w.shards
		if w.max > 0 && int64(len(w.jobs)) == w.max {
			w.end = d
			return
		}
	}
}

// play carries out acts, then a stop at end.
func (w *refWalk) play(acts []act, end time.Duration) *refWalk {
	for _, a := range acts {
		w.control(a.kind, a.rate, int64(a.at))
	}
	w.control(ctlStop, 0, int64(end))
	return w
}

// control carries out a control request at t; a wake is none (the reference needs no timer).
func (w *refWalk) control(k ctlKind, r Rate, t int64) {
	w.until(t)
	if w.end >= 0 {
		return
	}
	switch k {
	case ctlRate:
		w.stretch(t, r)
	case ctlPause:
		w.paused = true
	case ctlResume:
		if w.paused {
			w.paused = false
			w.stretch(t, w.rate)
		}
	case ctlHold:
		w.held = true
	case ctlRelease:
		w.held = false
	case ctlNext:
		if w.stage+1 < len(w.stages) {
			w.enter(w.stage+1, t)
		}
	case ctlPrev:
		if w.stage > 0 {
			w.enter(w.stage-1, t)
		}
	case ctlStop:
		w.end = t
	}
}
