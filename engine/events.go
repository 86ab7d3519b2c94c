package engine

import (
	"sync"
	"time"
)

// EventLog is the run's list of events, safe for concurrent use. Control calls come from the UI
// goroutine while the aggregator reads, so a mutex guards it; events are rare.
type EventLog struct {
	mu     sync.Mutex
	start  time.Time
	events []Event
}

// NewEventLog starts a log whose event times count from start.
func NewEventLog(start time.Time) *EventLog { return &EventLog{start: start} }

// Add records an event now.
func (l *EventLog) Add(kind, detail string) { l.addAt(time.Since(l.start), kind, detail) }

// addAt records an event that happened at at since the log's start: the scheduler's walk takes
// its time as an argument instead of reading the clock. The log stays in time order, which its
// readers rely on (the line printer takes each event once, by time): an event that reaches the
// log after a later one (another goroutine's, a moment after at) takes that one's time.
func (l *EventLog) addAt(at time.Duration, kind, detail string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := at.Seconds()
	if n := len(l.events); n > 0 {
		t = max(t, l.events[n-1].T)
	}
	l.events = append(l.events, Event{T: t, Kind: kind, Detail: detail})
}

// List returns a copy of the events so far.
func (l *EventLog) List() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Event, len(l.events))
	copy(out, l.events)
	return out
}
