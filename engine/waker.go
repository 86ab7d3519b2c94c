package engine

import "time"

// waker is how the scheduler sleeps until its next send. Go's own timers are coarse when the
// process is idle: the runtime then waits in epoll_wait, whose timeout is whole milliseconds,
// so a timer due in 200 µs fires up to a millisecond late, and every request sent then carries
// that lag into its latency (latency counts from the intended time). On Linux the waker is a
// timerfd (see waker_linux.go): a high-resolution kernel timer that makes the fd readable, which
// wakes epoll_wait at once, so the scheduler wakes within tens of µs of its due time. Elsewhere,
// or if a timerfd cannot be had, it is a plain time.Timer.
type waker interface {
	// C delivers a value when the timer set by Reset fires. A stale value after a Reset may
	// arrive; the scheduler then finds nothing due and sleeps again.
	C() <-chan struct{}
	// Reset sets the timer to fire after d (at once for d <= 0), replacing any earlier setting.
	Reset(d time.Duration)
	// Stop releases the timer.
	Stop()
}

// goTimer is the portable waker.
type goTimer struct {
	t  *time.Timer
	ch chan struct{}
}

func newGoTimer() *goTimer {
	g := &goTimer{ch: make(chan struct{}, 1)}
	g.t = time.AfterFunc(time.Hour, func() {
		select {
		case g.ch <- struct{}{}:
		default:
		}
	})
	return g
}

func (g *goTimer) C() <-chan struct{}    { return g.ch }
func (g *goTimer) Reset(d time.Duration) { g.t.Reset(max(d, 0)) }
func (g *goTimer) Stop()                 { g.t.Stop() }
