package engine

import (
	"sync/atomic"
	"time"
)

// StageCounters are the per-stage counts kept outside the aggregator, because they change where
// no sample exists yet: a request is scheduled, then sent or dropped.
type StageCounters struct {
	Scheduled atomic.Int64
	Sent      atomic.Int64
	Dropped   atomic.Int64
}

// Counters are the lock-free counts shared by the scheduler, the workers and the aggregator.
// Completed is not here: the aggregator derives it from samples, and in-flight = sent − completed.
// The stages' active time is kept here too (behind a mutex: it changes only at stage changes).
type Counters struct {
	stages    []StageCounters
	clock     *stageClock
	pauses    *pauseLog      // when sending was paused, for the rows' target rate
	reqSent   []atomic.Int64 // sent per (stage, request): stage*requests + request
	requests  int
	Dials     atomic.Int64 // new connections dialed
	DialNanos atomic.Int64 // total time spent dialing (dial + TLS)
	DialMax   atomic.Int64 // slowest dial, ns
	// Redials counts connections dialed again after one closed or a dial failed: WebSocket
	// connections, which the transport keeps open and dials again (HTTP/1.1's keep-alive
	// connections come and go as fasthttp needs them, and are not counted here).
	Redials atomic.Int64
}

// NewCounters makes counters for a plan of n stages (at least one).
func NewCounters(n int) *Counters {
	if n < 1 {
		n = 1
	}
	return &Counters{stages: make([]StageCounters, n), clock: newStageClock(n), pauses: &pauseLog{}}
}

// sharingPlan makes counters for another target of the same run (see Target): books of its
// own, with the stages' active time and the pauses shared, because the targets follow one
// schedule.
func (c *Counters) sharingPlan() *Counters {
	o := NewCounters(len(c.stages))
	o.clock, o.pauses = c.clock, c.pauses
	o.InitRequests(c.requests)
	return o
}

// StageActive is how long stage i has been active (the current stage, not paused) by now, time
// since the run's start: the sum of its spans when next/previous stage revisited it.
func (c *Counters) StageActive(i int, now time.Duration) time.Duration { return c.clock.active(i, now) }

// Stage returns stage i's counters; out-of-range indexes clamp to the last stage.
func (c *Counters) Stage(i int) *StageCounters {
	if i < 0 {
		i = 0
	}
	if i >= len(c.stages) {
		i = len(c.stages) - 1
	}
	return &c.stages[i]
}

// InitRequests sizes the per-request sent counters for a mix of n requests. Call it before the
// run starts.
func (c *Counters) InitRequests(n int) {
	c.requests = n
	c.reqSent = make([]atomic.Int64, n*len(c.stages))
}

// RequestSent counts one send of request req in stage.
func (c *Counters) RequestSent(stage, req int) {
	if i := c.reqIndex(stage, req); i >= 0 {
		c.reqSent[i].Add(1)
	}
}

// RequestSentIn is how many sends of request req stage had; stage < 0 sums all stages.
func (c *Counters) RequestSentIn(stage, req int) int64 {
	if stage >= 0 {
		if i := c.reqIndex(stage, req); i >= 0 {
			return c.reqSent[i].Load()
		}
		return 0
	}
	var n int64
	for s := range c.stages {
		n += c.RequestSentIn(s, req)
	}
	return n
}

func (c *Counters) reqIndex(stage, req int) int {
	if req < 0 || req >= c.requests || stage < 0 || stage >= len(c.stages) {
		return -1
	}
	return stage*c.requests + req
}

// StageCount is the number of stages counted.
func (c *Counters) StageCount() int { return len(c.stages) }

// Totals sums scheduled, sent and dropped over all stages.
func (c *Counters) Totals() (scheduled, sent, dropped int64) {
	for i := range c.stages {
		sc, se, dr := c.stages[i].Books()
		scheduled, sent, dropped = scheduled+sc, sent+se, dropped+dr
	}
	return scheduled, sent, dropped
}

// Books reads the stage's scheduled, sent and dropped counts while the run goes. A request is
// counted scheduled before it is sent or dropped, so reading sent and dropped first and
// scheduled last never shows more sent and dropped than scheduled; the difference is what waits
// in the backlog (Summary.Queued).
func (s *StageCounters) Books() (scheduled, sent, dropped int64) {
	dropped = s.Dropped.Load()
	sent = s.Sent.Load()
	scheduled = s.Scheduled.Load()
	return scheduled, sent, dropped
}

// RecordDial counts one new connection and the time its setup took.
func (c *Counters) RecordDial(nanos int64) {
	c.Dials.Add(1)
	c.DialNanos.Add(nanos)
	for {
		m := c.DialMax.Load()
		if nanos <= m || c.DialMax.CompareAndSwap(m, nanos) {
			return
		}
	}
}
