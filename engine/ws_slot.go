package engine

// A slot is one of the Config.Connections WebSocket connections of a run: it dials its link
// when a call first needs it, and again when the link has closed, one dial at a time. After a
// failed dial it waits before the next (wsBackoffMin, doubling to wsBackoffMax), and the calls
// given to it meanwhile fail at once as that dial did: a refused upgrade's status, or its
// transport error. Every dial after a slot's first is a re-dial, counted (Counters.Redials).

import (
	"os"
	"sync"
	"sync/atomic"
	"time"
)

const (
	wsBackoffMin = 50 * time.Millisecond
	wsBackoffMax = 2 * time.Second
)

// wsSlot is one connection of the pool and the ids its calls are given: ids are unique on the
// slot whatever link carries them, so a late answer on a new link can never be taken for
// another call's.
type wsSlot struct {
	t      *wsTransport
	nextID atomic.Uint64

	mu      sync.Mutex
	cur     *link
	dialing chan struct{} // while a dial is under way; closed when it ends
	retryAt time.Time     // no dial before this, after a failed one
	backoff time.Duration
	failed  error // the last dial's failure, which the calls get until retryAt
	dialed  bool  // a dial was tried: the next is a re-dial
}

// ids takes n ids for one send and returns the first.
func (s *wsSlot) ids(n int) uint64 { return s.nextID.Add(uint64(n)) - uint64(n) + 1 }

// get returns the slot's live link, dialing one by deadline when there is none.
func (s *wsSlot) get(deadline time.Time) (*link, error) {
	for {
		s.mu.Lock()
		if s.cur != nil && s.cur.up() {
			l := s.cur
			s.mu.Unlock()
			return l, nil
		}
		if ch := s.dialing; ch != nil {
			s.mu.Unlock()
			if !waitUntil(ch, deadline) {
				return nil, os.ErrDeadlineExceeded // a timeout, as a dial that ran out of time
			}
			continue
		}
		if now := time.Now(); now.Before(s.retryAt) {
			err := s.failed
			s.mu.Unlock()
			return nil, err
		}
		ch := make(chan struct{})
		s.dialing = ch
		redial := s.dialed
		s.dialed = true
		s.mu.Unlock()
		return s.dial(ch, redial, deadline)
	}
}

// dial makes the slot's new link, then wakes the calls that waited for it.
func (s *wsSlot) dial(ch chan struct{}, redial bool, deadline time.Time) (*link, error) {
	if redial && s.t.counters != nil {
		s.t.counters.Redials.Add(1)
	}
	l, err := s.t.dial(deadline)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dialing = nil
	close(ch)
	if err != nil {
		s.backoff = min(max(2*s.backoff, wsBackoffMin), wsBackoffMax)
		s.retryAt, s.failed = time.Now().Add(s.backoff), err
		return nil, err
	}
	s.cur, s.backoff, s.failed, s.retryAt = l, 0, nil, time.Time{}
	return l, nil
}

// close shuts the slot's link, if any; for the end of a run.
func (s *wsSlot) close() {
	s.mu.Lock()
	l := s.cur
	s.cur = nil
	s.mu.Unlock()
	if l != nil {
		l.shut()
	}
}

// up reports a link that has not closed.
func (l *link) up() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed == nil
}

// waitUntil waits for ch to close by deadline; false when the deadline came first. It
// allocates a timer: only calls that wait for a dial come here.
func waitUntil(ch <-chan struct{}, deadline time.Time) bool {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
