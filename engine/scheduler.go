package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// job is one due request handed from the Scheduler to a worker.
type job struct {
	intended int64 // ns since run start
	stage    uint16
	// req is the request to send, picked and rendered once for every target of a run with
	// several (fanout); nil when the worker picks from the mix itself.
	req *sharedReq
}

// maxEmitPerPass bounds one catch-up loop so control messages are still served when the schedule
// is far behind (after a long stall of the process, say).
const maxEmitPerPass = 4096

// DefaultSendTick is the grain of the scheduler's wake-ups (Config.SendTick): it wakes on whole
// ticks since the start and hands out everything due by then. Intended times stay exact
// (latency is still measured from when each request should have gone), so the tick changes
// only when requests leave: up to one tick late, half a tick on average, and the send lag in
// every snapshot shows it. It is a trade of CPU against that lag, measured at 20k/s on one core
// of this 2-core VM with the timerfd waker (CPU s per 1M requests, send lag p50/p99): a wake per
// request 44 s, 0.04/0.13 ms; 250 µs ticks 28 s, 0.18/0.29 ms; 500 µs 21–23 s, 0.33/0.55 ms;
// 1 ms 17–19 s, 0.62/1.04 ms, against 20–27 s and 0.04–0.37/1.15 ms for Go's own timer woken per
// request. 1 ms also matches nginx's limit_req, which reads its clock in whole milliseconds, so
// a limiter sees the same spacing either way. A wake costs far more than a send at low rates
// (bench/README.md, "The cost of a wake-up"), which is why a user may choose a coarser one.
const DefaultSendTick = time.Millisecond

// MinSendTick and MaxSendTick bound Config.SendTick: finer than 100 µs the timer's own
// precision is the grain; coarser than 100 ms a burst of rate × tick is no longer a rate.
const (
	MinSendTick = 100 * time.Microsecond
	MaxSendTick = 100 * time.Millisecond
)

// lazyHold bounds how long an event loop leaves an answer unread: while the Scheduler wakes
// again within it, the loop reads answers only at its wakes, not as each comes (evLoop.lazy);
// a longer sleep kicks the loops first. The answer's time is the kernel's (loopSlot.stamp),
// so the wait is not in its latency; it holds the connection, which another one makes up for.
const lazyHold = 2 * time.Millisecond

// sendTickOf is cfg's tick in ns: Config.SendTick, or DefaultSendTick when unset.
func sendTickOf(cfg *Config) int64 {
	if cfg.SendTick > 0 {
		return int64(cfg.SendTick)
	}
	return int64(DefaultSendTick)
}

// segment is a stretch of constant rate: the plan's send number m of it is due at
// start + m/rate. Absolute due times mean sleep jitter never accumulates (the vegeta pacer's
// lesson); a new segment begins at every stage change, rate change or resume, so a change never
// causes a catch-up burst. Shard I of N takes the sends I-1, I-1+N, I-1+2N … of every segment,
// so N machines together send the one machine's schedule, evenly, not in bursts of N (which a
// token-bucket limiter would punish).
type segment struct {
	start int64   // ns since run start
	rate  float64 // per second, the plan's (all shards together)
	n     int64   // sends this instance already handed out in this segment
	every int64   // this instance takes every every-th send (the shard count, 1 unsharded) …
	first int64   // … from this one (its shard number, from 0)
}

// due is the intended time of the segment's next send. The send's number is a whole number
// times 10⁹ divided once by the rate, so for a whole rate per second it falls exactly to the ns
// below (a share rate/N with a phase (I-1)/N in floating point put shards' sends a ns early).
func (s *segment) due() int64 {
	return s.start + int64(float64(s.n*s.every+s.first)*1e9/s.rate)
}

// Scheduler walks the Plan and turns it into intended send times. In open mode it hands due jobs
// to a bounded backlog (the jobs channel); a full backlog counts the request as dropped. In closed
// mode it only keeps time (stage changes) and workers send back to back.
type Scheduler struct {
	cfg      *Config
	counters *Counters
	events   *EventLog
	start    time.Time
	jobs     chan job
	ctl      chan control
	done     chan struct{} // closed when the schedule has ended (closed mode workers watch it)
	leave    chan struct{} // closed by a stop that ends the drain (see Stop)
	// fan, in a run with several targets, hands each due send to every target's backlog
	// instead of jobs (the first target's); nil with one target.
	fan *fanout

	stopOnce   sync.Once
	leaveOnce  sync.Once
	stopReason atomic.Pointer[string]
	state      atomic.Pointer[PlanState]
	lags       lagBook      // how late sends went out, per second (the "tester behind" flag)
	claimed    atomic.Int64 // closed mode: requests claimed against MaxRequests
	// wakeAt is when Run wakes next (ns since the start): an event loop reads answers only at
	// its wakes while that is near (evLoop.lazy).
	wakeAt      atomic.Int64
	maxRequests int64        // this instance's share of Config.MaxRequests
	stage       atomic.Int32 // current stage, read by closed-mode workers
	stageEnd    atomic.Int64 // ns since start when the current stage ends; noEnd when open-ended
	tick        int64        // the grain of the wake-ups, ns (Config.SendTick)
	// kicks wake the event loops that take from the backlogs (pool.loop), which wait on
	// their own sockets, not on the backlog; set before Run.
	kicks []func()
	// waker, when set before Run, is how Run sleeps: an event loop's tick (loopWaker), so the
	// loop that sends is the one woken, not a goroutine of the timer's that wakes Run that
	// wakes the loop. Nil: a waker of Run's own (newWaker).
	waker  waker
	handed int64 // sends handed out as of the last kick (plan)
	// stepped: the walk while a stepper's owner steps it at its wakes (runStepped), under
	// walkMu; nil before and after. ended is closed when a step ends the schedule.
	walkMu  sync.Mutex
	stepped *schedRun
	ended   chan struct{}
}

// NewScheduler prepares a scheduler; Run starts it.
func NewScheduler(cfg *Config, counters *Counters, events *EventLog, start time.Time) *Scheduler {
	s := &Scheduler{
		cfg: cfg, counters: counters, events: events, start: start,
		jobs:  make(chan job, backlogSize(cfg)),
		ctl:   make(chan control, 16),
		done:  make(chan struct{}),
		leave: make(chan struct{}),
	}
	s.state.Store(&PlanState{State: StateRunning, StageCount: len(cfg.Plan.Stages)})
	s.stageEnd.Store(noEnd)
	s.maxRequests = cfg.MaxRequests
	s.tick = sendTickOf(cfg)
	if n := int64(cfg.ShardCount); n > 1 && cfg.MaxRequests > 0 {
		// Shards split the count as evenly as whole requests allow; the first ones take the rest.
		s.maxRequests = cfg.MaxRequests / n
		if int64(cfg.Shard-1) < cfg.MaxRequests%n {
			s.maxRequests++
		}
	}
	return s
}

// backlogSize is how many due requests may wait for one of cfg's workers.
func backlogSize(cfg *Config) int {
	if cfg.Backlog > 0 {
		return cfg.Backlog
	}
	return defaultBacklog(cfg.InFlight())
}

// defaultBacklog lets each worker (a connection, or an HTTP/2 stream) have a few requests
// queued behind it: enough to absorb jitter and short stalls (their latency is measured
// honestly), small enough to bound memory.
func defaultBacklog(workers int) int {
	b := workers * 64
	if b < 1024 {
		b = 1024
	}
	if b > 1<<20 {
		b = 1 << 20
	}
	return b
}

// Jobs is the backlog workers read from; it is closed when the schedule ends.
func (s *Scheduler) Jobs() <-chan job { return s.jobs }

// Done is closed when the schedule has ended.
func (s *Scheduler) Done() <-chan struct{} { return s.done }

// State is the scheduler's position now. The time left in a running stage is computed at the
// call, so readers between control actions still see it count down.
func (s *Scheduler) State() PlanState {
	st := *s.state.Load()
	now := int64(time.Since(s.start))
	if end := s.stageEnd.Load(); st.State == StateRunning && end != noEnd {
		st.StageLeft = max(time.Duration(end-now), 0)
	}
	return st
}

// paused reports whether sending is paused (closed-mode workers wait while it is).
func (s *Scheduler) paused() bool { return s.state.Load().State == StatePaused }

// unclaim gives back a request claimed while paused, so MaxRequests still counts only sends.
func (s *Scheduler) unclaim() { s.claimed.Add(-1) }

// StopReason is why the schedule ended early ("" if it ran to completion).
func (s *Scheduler) StopReason() string {
	if p := s.stopReason.Load(); p != nil {
		return *p
	}
	return ""
}

// Stage is the current stage index (for closed-mode workers).
func (s *Scheduler) Stage() int { return int(s.stage.Load()) }

// Claim reserves one request in closed mode; false once MaxRequests is reached or the run ended.
func (s *Scheduler) Claim() bool {
	select {
	case <-s.done:
		return false
	default:
	}
	if s.maxRequests > 0 && s.claimed.Add(1) > s.maxRequests {
		s.finish("", s.now())
		return false
	}
	return true
}

func (s *Scheduler) send(c control) {
	select {
	case s.ctl <- c:
	case <-s.done:
	}
}

// SetRate implements Controller.
func (s *Scheduler) SetRate(r Rate) { s.send(control{kind: ctlRate, rate: r}) }

// Pause implements Controller.
func (s *Scheduler) Pause() { s.send(control{kind: ctlPause}) }

// Resume implements Controller.
func (s *Scheduler) Resume() { s.send(control{kind: ctlResume}) }

// NextStage implements Controller.
func (s *Scheduler) NextStage() { s.send(control{kind: ctlNext}) }

// PrevStage implements Controller.
func (s *Scheduler) PrevStage() { s.send(control{kind: ctlPrev}) }

// Hold implements Controller.
func (s *Scheduler) Hold(on bool) {
	if on {
		s.send(control{kind: ctlHold})
	} else {
		s.send(control{kind: ctlRelease})
	}
}

// Stop implements Controller: the schedule ends now; nothing more is sent, and Run waits for
// the requests in flight (the drain). A stop that finds the schedule over already (a second
// stop, or a first one after the plan ran out) ends that wait instead: whoever stops twice, or
// stops a run that only waits on a slow target, wants to leave now, not in Config.Timeout.
func (s *Scheduler) Stop(reason string) {
	if reason == "" {
		reason = "stop"
	}
	first := s.stopReason.CompareAndSwap(nil, &reason)
	select {
	case <-s.done:
		s.leaveDrain(reason)
		return
	default:
	}
	if !first {
		s.leaveDrain(reason) // the first stop may still be on its way to Run: the drain is next
		return
	}
	s.send(control{kind: ctlStop})
}

// leaveDrain makes Run stop waiting for the requests in flight, once, and records why.
func (s *Scheduler) leaveDrain(reason string) {
	s.leaveOnce.Do(func() {
		s.events.Add("stop", reason+": leaving without waiting for the answers in flight")
		close(s.leave)
	})
}

// leaving is closed once a stop has asked Run to end its drain at once.
func (s *Scheduler) leaving() <-chan struct{} { return s.leave }

// Mark implements Controller.
func (s *Scheduler) Mark(kind, detail string) { s.events.Add(kind, detail) }

// finish ends the schedule once, at at (ns since the start): workers see done, the backlog is
// closed by Run.
func (s *Scheduler) finish(reason string, at int64) {
	s.stopOnce.Do(func() {
		if reason != "" {
			s.stopReason.CompareAndSwap(nil, &reason)
		}
		// Nothing is sent any more, so no stage is active (a no-op when Run closed it already).
		s.counters.clock.leave(time.Duration(at))
		close(s.done)
	})
}

func (s *Scheduler) now() int64 { return int64(time.Since(s.start)) }

// newSegment starts a stretch of the plan's rate r at time at, of which this instance takes
// its shard's sends.
func (s *Scheduler) newSegment(at int64, r Rate) segment {
	seg := segment{start: at, rate: float64(r), every: 1}
	if s.cfg.ShardCount > 1 {
		seg.every, seg.first = int64(s.cfg.ShardCount), int64(s.cfg.Shard-1)
	}
	return seg
}

func stageLabel(i, n int, st Stage) string {
	d := "until stopped"
	if st.Duration > 0 {
		d = "for " + st.Duration.String()
	}
	name := ""
	if st.Name != "" {
		name = " " + st.Name
	}
	return fmt.Sprintf("stage %d/%d%s: %s %s", i+1, n, name, st.Rate, d)
}

// Run walks the plan until it ends, Stop is called or ctx is cancelled, then closes the backlog.
// Requests still waiting in the backlog at a stop are counted dropped by the workers. Run is the
// walk's real-time loop: it reads the clock, sleeps until the walk has work, and passes the time
// and the control requests on (schedRun never reads a clock itself).
func (s *Scheduler) Run(ctx context.Context) {
	r := s.walk()
	defer func() {
		r.end(s.now())
		s.kick() // the backlog is closed: a loop sees it and ends once its requests have
	}()
	timer := s.waker
	if timer == nil {
		timer = newWaker()
	}
	defer timer.Stop()
	if w, ok := timer.(stepper); ok {
		s.runStepped(ctx, r, w)
		return
	}
	for !r.step(s.now()) {
		s.plan(r, timer)
		select {
		case <-ctx.Done():
			s.stopReason.CompareAndSwap(nil, ptr("cancelled"))
			return
		case <-s.done:
			return
		case c := <-s.ctl:
			if r.control(c, s.now()) {
				return
			}
		case <-timer.C():
		}
	}
}

func ptr(s string) *string { return &s }

// plan hands out what the last step scheduled (a kick) and sets timer to the walk's next wake.
func (s *Scheduler) plan(r *schedRun, timer waker) {
	if r.scheduled != s.handed {
		s.handed = r.scheduled
		s.kick()
	}
	now := s.now()
	d := sleepFor(r.nextWake(), now, s.tick)
	s.wakeAt.Store(now + int64(d))
	if d > lazyHold {
		s.kick() // a loop that waits for this wake to read its answers reads them now
	}
	timer.Reset(d)
}

// kick wakes every event loop to take what the backlog holds.
func (s *Scheduler) kick() {
	for _, k := range s.kicks {
		k()
	}
}

// idleWake is how long Run sleeps when the walk has nothing to do until a control request comes
// (paused, or a zero rate with no end): a wake then finds nothing due and sleeps again.
const idleWake = time.Hour

// sleepFor is how long Run sleeps at now until the walk's next wake (next, from nextWake): to
// the whole tick it falls in, at once when that has passed.
func sleepFor(next, now, tick int64) time.Duration {
	if next == noEnd {
		return idleWake
	}
	return time.Duration(max(ceilTick(next, tick)-now, 0))
}

// ceilTick rounds a time since the start up to a whole tick.
func ceilTick(ns, tick int64) int64 {
	if ns <= 0 {
		return 0
	}
	return (ns + tick - 1) / tick * tick
}
