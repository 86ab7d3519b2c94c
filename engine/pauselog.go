package engine

import (
	"sync"
	"time"
)

// pauseLog keeps the spans in which sending was paused (times since the run's start), so that
// a second's row can say what the plan asked of it: nothing while paused. A row's target rate
// was the stage's rate whatever the pause, so a paused run's timeline (CSV, charts) showed a
// target it was not sending. The scheduler opens and closes spans (a key press each); the
// aggregator reads them when it closes a row: a mutex costs nothing that matters.
type pauseLog struct {
	mu     sync.Mutex
	spans  [][2]time.Duration // closed spans [from, to)
	open   bool               // a span is open: sending is paused now
	opened time.Duration      // when the open span began
}

// pause opens a span at at (nothing when one is open).
func (l *pauseLog) pause(at time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.open {
		l.open, l.opened = true, at
	}
}

// resume closes the open span at at (nothing when none is open).
func (l *pauseLog) resume(at time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open {
		l.spans = append(l.spans, [2]time.Duration{l.opened, max(at, l.opened)})
		l.open = false
	}
}

// within is how much of [from, to) was paused; a span still open runs on to to.
func (l *pauseLog) within(from, to time.Duration) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	overlap := func(a, b time.Duration) time.Duration { return max(min(b, to)-max(a, from), 0) }
	var d time.Duration
	for _, s := range l.spans {
		d += overlap(s[0], s[1])
	}
	if l.open {
		d += overlap(l.opened, to)
	}
	return d
}
