package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// End reasons of a snapshot besides "quit" and "signal:SIGINT" and the like.
const (
	// EndCompleted: the plan (or the request count) ran out.
	EndCompleted = "completed"
	// EndRunning: a snapshot taken while the run went on.
	EndRunning = "running"
)

// RunOptions tune a Runner; the zero value is fine.
type RunOptions struct {
	// PublishEvery is how often a fresh Stats view is published; default 100 ms (10 frames/s).
	PublishEvery time.Duration
	// DrainTimeout bounds the wait for in-flight requests at the end; default Timeout + 2 s.
	DrainTimeout time.Duration
	// Watch, when set, reads the node's resources beside the run (see Watcher): the Runner
	// runs it for as long as the run goes and files its readings in the timeline.
	Watch Watcher
}

// Runner is one run of the engine: scheduler, worker pool, client and aggregator, wired
// together; with several targets, one scheduler and a pool, client and aggregator per target
// (a lane). Make it with NewRunner, steer it through Controller, watch it through Stats, and
// call Run once.
type Runner struct {
	cfg      *Config
	opt      RunOptions
	counters *Counters // the first target's books, and the stages' clock and pauses of all
	events   *EventLog
	sched    *Scheduler
	lanes    []*lane        // one per target; the first one's numbers are the run's top level
	cmp      answerComparer // nil unless the targets' answers are compared
	views    statsCache     // with several targets, the last view Stats made
	start    time.Time
	// drainEnd is when the drain gives up, in ns since start; 0 until the drain begins.
	drainEnd atomic.Int64
	feed     *feed // nil unless the requests stream from a Source
}

// NewRunner checks cfg and prepares a run. The run's clock starts here, so call Run right away.
func NewRunner(cfg *Config, opt RunOptions) (*Runner, error) {
	if err := validateConfig(cfg); err != nil {
		return nil, err
	}
	if err := checkFDLimit(totalConnections(cfg)); err != nil {
		return nil, err
	}
	if opt.DrainTimeout <= 0 {
		opt.DrainTimeout = cfg.Timeout + 2*time.Second
	}
	if cfg.Source != nil {
		// The run's own copy, whose request table the Source fills in as the run goes; the
		// caller's Config stays as it was.
		own := *cfg
		own.Requests = make([]Request, cfg.SourceRequests)
		cfg = &own
	}
	start := time.Now()
	r := &Runner{cfg: cfg, opt: opt, start: start}
	r.counters = NewCounters(len(cfg.Plan.Stages))
	r.counters.InitRequests(len(cfg.Requests))
	r.events = NewEventLog(start)
	if cfg.Source != nil {
		r.feed = newFeed(cfg.Source, cfg.Requests, r.events)
	}
	if err := r.makeLanes(); err != nil {
		return nil, err
	}
	for _, l := range r.lanes {
		// Each target's own subscriptions, at its node (laneConfig), in its lane's books.
		s, err := newSubscriptions(l.cfg, start, r.events, l.label())
		if err != nil {
			return nil, l.wrap(err)
		}
		if s != nil {
			l.subs, l.agg.subs = s, s.book
		}
	}
	return r, nil
}

// validateConfig catches a hand-built Config the profile loader would have refused.
func validateConfig(cfg *Config) error {
	var errs []error
	if cfg.Connections < 1 {
		errs = append(errs, fmt.Errorf("connections = %d: need at least 1", cfg.Connections))
	}
	if cfg.Streams < 0 {
		errs = append(errs, fmt.Errorf("streams = %d: need at least 1", cfg.Streams))
	}
	switch {
	case cfg.Source != nil && (cfg.SourceRequests < 1 || cfg.SourceRequests > 1<<16):
		errs = append(errs, fmt.Errorf("a Source of %d distinct requests: give 1 to 65536", cfg.SourceRequests))
	case cfg.Source == nil && len(cfg.Requests) == 0 && len(cfg.Subscriptions) == 0:
		errs = append(errs, errors.New("no requests: add at least one [[request]]"))
	case cfg.Source == nil && len(cfg.Requests) == 0:
		// Subscriptions alone: the plan only says how long they are held.
		for i, st := range cfg.Plan.Stages {
			if st.Rate > 0 || cfg.Mode == ModeClosed {
				errs = append(errs, fmt.Errorf("stage %d sends %s with no request to send: add a [[request]] or set its rate to 0", i+1, st.Rate))
				break
			}
		}
	}
	if len(cfg.Plan.Stages) == 0 {
		errs = append(errs, errors.New("no stages: add a [[stage]] or a [ramp]"))
	}
	if cfg.Timeout <= 0 {
		errs = append(errs, fmt.Errorf("timeout = %s: must be positive", cfg.Timeout))
	}
	if len(cfg.Requests) > 1<<16 || len(cfg.Plan.Stages) > 1<<16 {
		errs = append(errs, errors.New("more than 65536 requests or stages"))
	}
	errs = append(errs, validateTargets(cfg)...)
	return errors.Join(errs...)
}

// Controller steers the run (rate, pause, stages, hold, stop); every call becomes an event.
func (r *Runner) Controller() Controller { return r.sched }

// Start is when the run's clock started.
func (r *Runner) Start() time.Time { return r.start }

// SourceErr is why the Source broke off the run (end reason EndTargetsFailed), or nil: a
// bad target read while the run went on. Call it after Run.
func (r *Runner) SourceErr() error {
	if r.feed == nil || r.sched.StopReason() != EndTargetsFailed {
		return nil
	}
	return r.feed.failure()
}

// planState is the scheduler's position, as "draining" once the schedule has ended.
func (r *Runner) planState() PlanState {
	ps := r.sched.State()
	select {
	case <-r.sched.Done():
		ps.State = StateDraining
		ps.StageLeft = 0
		ps.DrainLeft = r.opt.DrainTimeout
		if end := r.drainEnd.Load(); end > 0 {
			ps.DrainLeft = max(time.Duration(end)-time.Since(r.start), 0)
		}
	default:
	}
	return ps
}

// Run sends the plan until it ends, Stop is called or ctx is cancelled; then drains in-flight
// requests (bounded by DrainTimeout, and ended at once by a further Stop) and returns the final
// snapshot. Faults of the target never end a run: they are outcomes.
func (r *Runner) Run(ctx context.Context, meta SnapshotMeta) (*Snapshot, error) {
	for _, l := range r.lanes {
		l.pool = &pool{cfg: l.cfg, client: l.client, sched: r.sched, agg: l.agg, counters: l.counters, start: r.start, feed: r.feed, jobs: l.jobs, lane: l.index}
		if l.client != nil {
			l.agg.collect = l.pool.collect
		}
		go l.agg.Run()
	}
	stopSubs, err := r.holdSubscriptions(ctx)
	if err != nil {
		for _, l := range r.lanes {
			l.agg.Finish(EndCompleted)
		}
		return nil, err
	}
	stopHead := r.followHead(ctx)
	stopWatch := r.runWatch(ctx)
	if r.feed != nil {
		go r.feed.run()
		r.feed.waitPrimed(100 * time.Millisecond)
	} else {
		for _, l := range r.lanes {
			l.pool.mix = newMix(r.cfg.Requests)
		}
	}
	for _, l := range r.lanes {
		if l.client != nil { // none for subscriptions alone: no workers
			l.pool.run(ctx)
		}
		if lp := l.pool.loop; lp != nil {
			r.sched.kicks = append(r.sched.kicks, lp.kick)
			if r.sched.waker == nil {
				r.sched.waker = lp.tickWaker() // the first loop's tick wakes the schedule
			}
		}
	}
	go r.sched.Run(ctx)

	<-r.sched.Done()
	r.drainEnd.Store(int64(time.Since(r.start) + r.opt.DrainTimeout))
	workersDone := make(chan struct{})
	go func() { // the drain waits for every target
		for _, l := range r.lanes {
			l.pool.wg.Wait()
		}
		close(workersDone)
	}()
	drain := time.NewTimer(r.opt.DrainTimeout)
	defer drain.Stop()
	select {
	case <-workersDone:
	case <-drain.C:
		r.endDrain(fmt.Sprintf("gave up waiting after %s", r.opt.DrainTimeout))
	case <-r.sched.leaving():
		select {
		case <-workersDone: // all answered meanwhile: nothing to leave behind
		default:
			r.endDrain("left on a stop without waiting")
		}
	}
	if r.feed != nil {
		r.feed.close()
	}
	reason := r.sched.StopReason()
	if reason == "" {
		reason = EndCompleted
	}
	r.events.Add("end", reason)
	stopHead()
	stopSubs()  // their last, partial second, before that row closes
	stopWatch() // its last reading, of the second the run ends in, before that row closes
	for _, l := range r.lanes {
		l.agg.Finish(reason)
		if l.client != nil {
			l.client.Close()
		}
	}
	return r.snapshot(meta)
}

// followHead starts the head trackers (one per target), when the run follows a head, for as
// long as the run goes; the returned func stops them and waits until they have.
func (r *Runner) followHead(ctx context.Context) (stop func()) {
	if r.lanes[0].head == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, l := range r.lanes {
		wg.Go(func() { l.head.run(ctx) })
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// holdSubscriptions starts the subscriptions, when the run holds any (each target's, with
// several), for as long as the run goes; the returned func ends them and waits until their
// books have filed their last second.
func (r *Runner) holdSubscriptions(ctx context.Context) (stop func(), err error) {
	var started []*subscriptions
	stop = func() {
		for _, s := range started {
			s.stop()
		}
	}
	for _, l := range r.lanes {
		if l.subs == nil {
			continue
		}
		if err := l.subs.run(ctx, l.cfg, r.start); err != nil {
			stop()
			return nil, l.wrap(err)
		}
		started = append(started, l.subs)
	}
	return stop, nil
}

// runWatch runs the Watcher, when there is one, until the returned func stops it and waits
// for its last reading.
func (r *Runner) runWatch(ctx context.Context) (stop func()) {
	if r.opt.Watch == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.opt.Watch.Run(ctx, r.start, r.events.Add)
	}()
	return func() {
		cancel()
		<-done
	}
}

// endDrain stops waiting for the requests in flight and records why (what, then the books),
// for each target.
func (r *Runner) endDrain(why string) {
	for _, l := range r.lanes {
		l.pool.abandoned.Store(true)
	}
	for _, l := range r.lanes {
		never := l.abandonBacklog()
		_, sent, _ := l.counters.Totals()
		r.events.Add("drain", fmt.Sprintf("%s%s; requests still in flight are reported as such (sent %d); %d never sent from the backlog are counted dropped", l.label(), why, sent, never))
	}
}

// abandonBacklog ends the drain of a lane whose pool is abandoned: the requests still waiting
// in its backlog (a slow target at the plan's end leaves up to Backlog of them) will never be
// sent, so they are counted dropped, keeping scheduled = sent + dropped. Workers busy with a
// request finish it on their own and drop the rest too. It returns how many it dropped itself.
func (l *lane) abandonBacklog() int64 {
	var n int64
	for j := range l.jobs { // closed once the schedule has ended
		l.counters.Stage(int(j.stage)).Dropped.Add(1)
		j.req.dropped(l.index)
		n++
	}
	// A worker that took a job just before the flag was set counts it a moment later.
	for wait := time.Now().Add(100 * time.Millisecond); time.Now().Before(wait); time.Sleep(time.Millisecond) {
		if scheduled, sent, dropped := l.counters.Totals(); scheduled == sent+dropped {
			break
		}
	}
	return n
}
