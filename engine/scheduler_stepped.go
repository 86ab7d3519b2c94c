package engine

import "context"

// stepper is a waker whose owner steps the walk itself when the timer fires (Scheduler.step),
// on its own goroutine: an event loop, which then sends what the step handed out in the same
// pass. Woken through Run, each wake of the schedule was two goroutine switches (the loop to
// Run, which selects over four channels, and back) and a yield: at 5,000/s Run alone was
// 3.9 % of the tester's samples, and stepping in the loop took the Go runtime's share from
// 13.0 to 10.8 % (bench/README, "Remembering the last answer").
type stepper interface {
	waker
	// stepWith has the owner call s.step at every expiration from now on, in place of C.
	stepWith(s *Scheduler)
}

// runStepped is Run with a stepper: Run carries out the control requests (and the first step),
// the stepper's owner the steps at its wakes, each under walkMu. It returns when the schedule
// has ended, with the walk no longer stepped, so Run's deferred end is the walk's last use.
func (s *Scheduler) runStepped(ctx context.Context, r *schedRun, w stepper) {
	s.ended = make(chan struct{})
	s.walkMu.Lock()
	s.stepped = r
	w.stepWith(s) // before the first wake is set: no expiration may go to C unread
	over := r.step(s.now())
	if !over {
		s.plan(r, w)
	}
	s.walkMu.Unlock()
	for !over {
		select {
		case <-ctx.Done():
			s.stopReason.CompareAndSwap(nil, ptr("cancelled"))
			over = true
		case <-s.done:
			over = true
		case <-s.ended:
			over = true
		case <-w.C():
			s.step() // the owner is gone (loopWaker.Reset): Run steps, as without it
		case c := <-s.ctl:
			s.walkMu.Lock()
			now := s.now()
			over = s.stepped == nil || r.control(c, now) || r.step(now)
			if !over {
				s.plan(r, w)
			}
			s.walkMu.Unlock()
		}
	}
	s.walkMu.Lock()
	s.stepped = nil
	s.walkMu.Unlock()
}

// step is a stepper's expiration: everything due by now handed out and the next wake set, on
// the stepper owner's goroutine. A step that ends the schedule leaves the end to Run.
func (s *Scheduler) step() {
	s.walkMu.Lock()
	defer s.walkMu.Unlock()
	r := s.stepped
	if r == nil {
		return
	}
	if r.step(s.now()) {
		s.stepped = nil
		close(s.ended)
		return
	}
	s.plan(r, s.waker)
}
