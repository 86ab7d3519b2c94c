package engine

import (
	"sync"
	"time"
)

// stageClock keeps the time each stage of the plan was active: the sum of the spans in which it
// was the current stage and sending was not paused. A stage revisited with next/previous has
// several spans; a stage's rate is its answers over this time, not over the stretch from its
// first send to its last answer, which would count the other stages run in between.
//
// The scheduler opens and closes spans (stage changes, pause, the end of the schedule); the
// aggregator reads them when it makes a summary. Spans change only at those moments, so a mutex
// costs nothing that matters.
type stageClock struct {
	mu     sync.Mutex
	closed []time.Duration // per stage, the spans already over
	cur    int             // the stage of the open span; -1 when none is open
	since  time.Duration   // when the open span began, since the run's start
}

func newStageClock(stages int) *stageClock {
	return &stageClock{closed: make([]time.Duration, max(stages, 1)), cur: -1}
}

// enter makes stage i the active one from at, closing the span open before (if any) at the same
// moment, so no time falls between two stages or counts for both.
func (c *stageClock) enter(i int, at time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeLocked(at)
	if i >= 0 && i < len(c.closed) {
		c.cur, c.since = i, at
	}
}

// leave closes the open span at at: sending paused or the schedule ended.
func (c *stageClock) leave(at time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeLocked(at)
}

func (c *stageClock) closeLocked(at time.Duration) {
	if c.cur >= 0 {
		c.closed[c.cur] += max(at-c.since, 0)
		c.cur = -1
	}
}

// active is how long stage i has been active up to now, the open span included.
func (c *stageClock) active(i int, now time.Duration) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i < 0 || i >= len(c.closed) {
		return 0
	}
	d := c.closed[i]
	if c.cur == i {
		d += max(now-c.since, 0)
	}
	return d
}
