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
func (l *EventLog) Add(kind, detail string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, Event{T: time.Since(l.start).Seconds(), Kind: kind, Detail: detail})
}

// List returns a copy of the events so far.
func (l *EventLog) List() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Event, len(l.events))
	copy(out, l.events)
	return out
}
