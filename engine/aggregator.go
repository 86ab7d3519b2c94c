package engine

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// rowGrace is how long a second stays open after it ends, so samples still in a worker's batch
// land in the right row. A sample later than that is counted in the oldest open second: counted,
// never lost, only filed a little late.
const rowGrace = 500 * time.Millisecond

// statsWindow is how many recent timeline rows a published Stats carries (the dashboard's chart).
const statsWindow = 300

// Aggregator owns every number of a run. It alone touches the HDR histograms (they are not
// goroutine-safe): it collects the samples of workers between sends (collect), busy workers
// send it their full or old batches down one channel, and it publishes an immutable Stats view
// a few times a second for the UI to pull.
type Aggregator struct {
	cfg      *Config
	target   string // the target's name in a run with several (Stats.TargetName); "" with one
	counters *Counters
	events   *EventLog
	plan     func() PlanState
	start    time.Time
	every    time.Duration
	// collect hands over the samples waiting in idle workers' batches (pool.collect); nil
	// for a lane without workers. Set before Run.
	collect func(ingest func(*Batch))

	in       chan *Batch
	free     chan *Batch
	finish   chan string
	snapReq  chan snapshotReq
	finished chan struct{}
	latest   atomic.Pointer[Stats]
	buildMu  sync.Mutex   // one snapshot built at a time (see build)
	enc      *histEncoder // encodes the histograms of every snapshot; shared by a run's targets

	// Owned by the Run goroutine.
	total     *spanAcc
	stages    []*spanAcc
	rows      requestRows  // which row of per-request numbers each request of the mix counts in
	reqTotal  []*spanAcc   // per row, made when first seen
	reqStages [][]*spanAcc // per stage, per row, made when first seen
	open      []*second    // open seconds, oldest first
	spare     []*second
	nextSec   int // the next second to open
	timeline  []Row
	rpcMsg    map[string]string
	headers   map[string]string
	dropped   int64 // total dropped at the last row close
	sentUpTo  int64 // total sent at the last row close
	lastWhole int   // the last row that covers at least half a second: Stats.Last (-1: none)
	stageView []StageStats
	rules     bool  // the mix has expect rules: summaries carry Expect
	costs     bool  // the mix has costs: summaries carry Cost, rows the cost rates
	costUpTo  int64 // total cost sent at the last row close
	endReason string
	endedAt   time.Duration

	// lagIn is how late the scheduler sent at worst during a second (nil: never late); the
	// Runner wires it to the scheduler's lag book.
	lagIn func(second int) time.Duration
	// headIn is the head tracker's state as of a moment of the run (nil: the run follows no
	// head); the Runner wires it to the tracker.
	headIn func(now time.Duration) *HeadState
	// watch reads the node's resources beside the run (nil: nothing is watched); each row
	// takes its reading of that second.
	watch Watcher
	// subs is the subscription book (nil: the run holds no subscriptions): each row takes its
	// second's figures, each view the totals so far.
	subs   *subBook
	tester TesterLoad    // the tester's health in the last closed second
	cpuAt  time.Duration // the process's CPU time at the last measure, and when (since start)
	wallAt time.Duration
}

// NewAggregator makes an aggregator for a run that started at start. plan reports the
// scheduler's position; every is the publish interval.
func NewAggregator(cfg *Config, counters *Counters, events *EventLog, plan func() PlanState, start time.Time, every time.Duration) *Aggregator {
	if every <= 0 {
		every = 100 * time.Millisecond
	}
	a := &Aggregator{
		cfg: cfg, counters: counters, events: events, plan: plan, start: start, every: every,
		in:        make(chan *Batch, 1024),
		free:      make(chan *Batch, 1024),
		finish:    make(chan string, 1),
		snapReq:   make(chan snapshotReq),
		finished:  make(chan struct{}),
		enc:       &histEncoder{},
		total:     newSpanAcc(),
		rows:      newRequestRows(cfg.Requests, cfg.Source != nil),
		rpcMsg:    map[string]string{},
		headers:   map[string]string{},
		tester:    TesterLoad{CPU: -1, Cores: runtime.GOMAXPROCS(0)},
		lastWhole: -1,
	}
	a.rules, a.costs = a.asks(0, len(cfg.Requests))
	// With one stage the run and its stage count the same answers: one accumulator serves
	// both (spansOf lists it once), which halves the recording per answer in the common
	// case (issue 20).
	for range cfg.Plan.Stages {
		a.stages = append(a.stages, newSpanAcc())
	}
	if len(a.stages) <= 1 {
		a.stages = []*spanAcc{a.total}
	}
	a.latest.Store(a.view(false))
	return a
}

// Stats is the latest published view; never nil.
func (a *Aggregator) Stats() *Stats { return a.latest.Load() }

// getBatch hands a worker an empty batch, reused when one is free.
func (a *Aggregator) getBatch() *Batch {
	select {
	case b := <-a.free:
		return b
	default:
		return &Batch{Samples: make([]Sample, 0, batchStart)}
	}
}

// submit sends a full batch to the aggregator. It reports false, dropping the batch, only when
// the aggregator has already finished (a request that outlived the drain wait: it stays counted
// as in flight).
func (a *Aggregator) submit(b *Batch) bool {
	select {
	case a.in <- b:
		return true
	case <-a.finished:
		return false
	}
}

// Finish ends the aggregation: every batch already submitted is ingested, the last seconds are
// closed, a final Stats with Done set is published. It returns when that is done.
func (a *Aggregator) Finish(reason string) {
	select {
	case a.finish <- reason:
	default:
	}
	<-a.finished
}

// collectEvery bounds how long a sample may wait in an idle worker's batch: as long as a busy
// worker's may (batchMaxAge), well inside the grace a second's row waits for late answers.
const collectEvery = time.Duration(batchMaxAge)

// Run ingests batches and publishes views until Finish. It collects the idle workers' samples
// every collectEvery or more often, and publishes a view every a.every: the tick divides
// a.every so both keep their cadence.
func (a *Aggregator) Run() {
	perView := max(1, int((a.every+collectEvery-1)/collectEvery))
	tick := time.NewTicker(a.every / time.Duration(perView))
	defer tick.Stop()
	lastStages := time.Duration(0)
	for ticks := 0; ; {
		select {
		case b := <-a.in:
			a.ingest(b)
		case <-tick.C:
			a.collectIdle()
			if ticks++; ticks%perView != 0 {
				continue
			}
			now := time.Since(a.start)
			a.advance(now, false)
			if now-lastStages >= time.Second {
				a.refreshStages(now)
				lastStages = now
			}
			a.latest.Store(a.view(false))
		case req := <-a.snapReq:
			a.collectIdle()
			a.serveSnapshot(req)
		case reason := <-a.finish:
			a.collectIdle()
			for drained := false; !drained; {
				select {
				case b := <-a.in:
					a.ingest(b)
				default:
					drained = true
				}
			}
			a.endReason = reason
			a.endedAt = time.Since(a.start)
			a.advance(a.endedAt, true)
			a.refreshStages(a.endedAt)
			a.latest.Store(a.view(true))
			close(a.finished)
			return
		}
	}
}

// collectIdle ingests what the idle workers hold.
func (a *Aggregator) collectIdle() {
	if a.collect != nil {
		a.collect(a.ingest)
	}
}

// ingest counts a batch and gives it back for reuse.
func (a *Aggregator) ingest(b *Batch) {
	for i := range b.Samples {
		s := &b.Samples[i]
		a.secondFor(s.Done).add(s)
		for _, sp := range a.spansOf(s) {
			if sp != nil {
				sp.add(s)
			}
		}
	}
	for _, e := range b.RPCErrors {
		a.eachSpan(b, e.Sample, func(sp *spanAcc) { sp.addRPC(e.Code) })
		if int(e.Sample) < len(b.Samples) {
			a.secondFor(b.Samples[e.Sample].Done).rpc[e.Code]++
		}
		if e.Message != "" {
			key := strconv.Itoa(int(e.Code))
			if _, ok := a.rpcMsg[key]; !ok {
				a.rpcMsg[key] = e.Message
			}
		}
	}
	for _, f := range b.Faults {
		a.eachSpan(b, f.Sample, func(sp *spanAcc) { sp.calls.addFault(f.Fault, f.N) })
	}
	for _, v := range b.Invalid {
		a.eachSpan(b, v.Sample, func(sp *spanAcc) { sp.checks.addRule(v.Rule, v.N) })
	}
	for _, h := range b.Headers {
		a.headers[h.Name] = h.Value
	}
	b.Reset()
	select {
	case a.free <- b:
	default:
	}
}

// eachSpan calls add on every span a sample's counts belong to: the run, and when the sample is
// in the batch, its stage and its request (in the run and in the stage).
func (a *Aggregator) eachSpan(b *Batch, sample int32, add func(*spanAcc)) {
	if int(sample) >= len(b.Samples) {
		add(a.total)
		return
	}
	for _, sp := range a.spansOf(&b.Samples[sample]) {
		if sp != nil {
			add(sp)
		}
	}
}

// spansOf are the accumulators a sample counts in: the run's, its stage's, its request's in
// the run and in the stage. One that is another's (a plan of one stage: oneSpan) is nil, so
// each is added to once.
func (a *Aggregator) spansOf(s *Sample) [4]*spanAcc {
	sp := [4]*spanAcc{a.total, a.stageAcc(int(s.Stage)), nil, nil}
	sp[2], sp[3] = a.requestAccs(int(s.Stage), int(s.Request))
	if a.oneSpan() {
		sp[1], sp[3] = nil, nil
	}
	return sp
}

// oneSpan says whether the run and its one stage share their accumulators (see NewAggregator
// and requestAccs).
func (a *Aggregator) oneSpan() bool { return a.stages[0] == a.total }

func (a *Aggregator) stageAcc(i int) *spanAcc {
	if i < 0 || i >= len(a.stages) {
		i = len(a.stages) - 1
	}
	return a.stages[i]
}

// books are the calls and cost sent in stage (stage < 0: the whole run), and what the mix
// asks; the caller adds scheduled, sent and dropped.
func (a *Aggregator) books(stage int) spanBooks {
	var bk spanBooks
	_, bk.callsSent, bk.costSent = a.sentIn(stage, 0, len(a.cfg.Requests))
	bk.rules, bk.costs = a.rules, a.costs
	return bk
}

// costSent is the cost of every request sent so far; 0, without counting, when the mix has
// no costs.
func (a *Aggregator) costSent() int64 {
	if !a.costs {
		return 0
	}
	_, _, cost := a.sentIn(-1, 0, len(a.cfg.Requests))
	return cost
}

// secondFor finds the open second a completion time belongs to, opening seconds as needed.
func (a *Aggregator) secondFor(done int64) *second {
	t := int(done / int64(time.Second))
	a.openUpTo(t)
	if t < a.open[0].t {
		return a.open[0] // late: see rowGrace
	}
	return a.open[t-a.open[0].t]
}

// openUpTo opens every second up to t, so a second with no completions still gets its row.
func (a *Aggregator) openUpTo(t int) {
	for a.nextSec <= t {
		ps := a.plan()
		var s *second
		if n := len(a.spare); n > 0 {
			s, a.spare = a.spare[n-1], a.spare[:n-1]
		} else {
			s = newSecond()
		}
		s.reset(a.nextSec, ps.Stage, float64(ps.TargetRate))
		_, s.sentMark, s.dropMark = a.counters.Totals()
		s.costMark = a.costSent()
		a.open = append(a.open, s)
		a.nextSec++
	}
}

// advance closes the seconds whose grace has passed at now; final closes all, the last one partial.
func (a *Aggregator) advance(now time.Duration, final bool) {
	a.openUpTo(int(now / time.Second))
	_, _, dropped := a.counters.Totals()
	for len(a.open) > 0 {
		s := a.open[0]
		end := time.Duration(s.t+1) * time.Second
		if !final && end+rowGrace > now {
			return
		}
		span := time.Second
		if final && end > now {
			span = now - time.Duration(s.t)*time.Second
		}
		_, sent, _ := a.counters.Totals()
		ps := a.plan()
		// The second opened before its samples arrived, maybe just before a stage change took
		// effect; its samples say which stage it belongs to.
		if ps.Stage == s.stage {
			s.target = float64(ps.TargetRate)
		} else if s.stage < len(a.cfg.Plan.Stages) {
			s.target = float64(a.cfg.Plan.Stages[s.stage].Rate)
		}
		// Nothing was asked while sending was paused: the target is the rate over the part of
		// the second that was not (0 for a second paused throughout).
		from := time.Duration(s.t) * time.Second
		if p := a.counters.pauses.within(from, from+span); p > 0 {
			s.target = roundMs(s.target * max(1-p.Seconds()/span.Seconds(), 0))
		}
		// The second's drops are those counted while it ran: up to when the next second opened
		// (within a publish interval of its start), not up to now, rowGrace later, which would
		// file half a second of the next second's drops under this one.
		upTo, sentUpTo := dropped, sent
		var costUpTo int64
		if len(a.open) > 1 {
			upTo, sentUpTo, costUpTo = a.open[1].dropMark, a.open[1].sentMark, a.open[1].costMark
		} else {
			costUpTo = a.costSent()
		}
		row := s.row(sent-a.total.completed, sentUpTo-a.sentUpTo, upTo-a.dropped, costUpTo-a.costUpTo, span)
		a.dropped, a.sentUpTo, a.costUpTo = upTo, sentUpTo, costUpTo
		a.tester.Lag = 0
		if a.lagIn != nil {
			a.tester.Lag = a.lagIn(s.t)
		}
		row.Saturated = testerBehind(a.tester.Lag, row.Latency.P99)
		if a.headIn != nil {
			rowHeads(&row, a.headIn(now))
		}
		a.tester.Behind = row.Saturated
		a.measureCPU(now)
		if a.watch != nil {
			row.Watch = a.watch.At(s.t)
		}
		if a.subs != nil {
			row.Subs = a.subs.At(s.t)
		}
		a.timeline = append(a.timeline, row)
		if span >= time.Second/2 {
			// The run's final sliver (the drain's last stragglers) is no "last second" to show:
			// "sent 0/s  ok 2/s" beside a run of 300/s.
			a.lastWhole = len(a.timeline) - 1
		}
		a.open = a.open[1:]
		a.spare = append(a.spare, s)
	}
}
