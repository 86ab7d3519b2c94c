package engine

import (
	"runtime"
	"strconv"
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
// goroutine-safe): workers send it batches of samples down one channel, and it publishes an
// immutable Stats view a few times a second for the UI to pull.
type Aggregator struct {
	cfg      *Config
	counters *Counters
	events   *EventLog
	plan     func() PlanState
	start    time.Time
	every    time.Duration

	in       chan *Batch
	free     chan *Batch
	finish   chan string
	snapReq  chan snapshotReq
	finished chan struct{}
	latest   atomic.Pointer[Stats]

	// Owned by the Run goroutine.
	total     *spanAcc
	stages    []*spanAcc
	reqTotal  []*spanAcc   // per request of the mix, made when first seen
	reqStages [][]*spanAcc // per stage, per request, made when first seen
	open      []*second    // open seconds, oldest first
	spare     []*second
	nextSec   int // the next second to open
	timeline  []Row
	rpcMsg    map[string]string
	headers   map[string]string
	dropped   int64 // total dropped at the last row close
	sentUpTo  int64 // total sent at the last row close
	stageView []StageStats
	endReason string
	endedAt   time.Duration

	// lagIn is how late the scheduler sent at worst during a second (nil: never late); the
	// Runner wires it to the scheduler's lag book.
	lagIn  func(second int) time.Duration
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
		in:       make(chan *Batch, 1024),
		free:     make(chan *Batch, 1024),
		finish:   make(chan string, 1),
		snapReq:  make(chan snapshotReq),
		finished: make(chan struct{}),
		total:    newSpanAcc(),
		rpcMsg:   map[string]string{},
		headers:  map[string]string{},
		tester:   TesterLoad{CPU: -1, Cores: runtime.GOMAXPROCS(0)},
	}
	for range cfg.Plan.Stages {
		a.stages = append(a.stages, newSpanAcc())
	}
	if len(a.stages) == 0 {
		a.stages = append(a.stages, newSpanAcc())
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
		return &Batch{Samples: make([]Sample, 0, batchSize)}
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

// Run ingests batches and publishes views until Finish.
func (a *Aggregator) Run() {
	tick := time.NewTicker(a.every)
	defer tick.Stop()
	lastStages := time.Duration(0)
	for {
		select {
		case b := <-a.in:
			a.ingest(b)
		case <-tick.C:
			now := time.Since(a.start)
			a.advance(now, false)
			if now-lastStages >= time.Second {
				a.refreshStages(now)
				lastStages = now
			}
			a.latest.Store(a.view(false))
		case req := <-a.snapReq:
			a.serveSnapshot(req)
		case reason := <-a.finish:
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

// ingest counts a batch and gives it back for reuse.
func (a *Aggregator) ingest(b *Batch) {
	for i := range b.Samples {
		s := &b.Samples[i]
		a.total.add(s)
		a.stageAcc(int(s.Stage)).add(s)
		a.secondFor(s.Done).add(s)
		tot, st := a.requestAccs(int(s.Stage), int(s.Request))
		tot.add(s)
		st.add(s)
	}
	for _, e := range b.RPCErrors {
		a.total.addRPC(e.Code)
		if int(e.Sample) < len(b.Samples) {
			s := &b.Samples[e.Sample]
			a.stageAcc(int(s.Stage)).addRPC(e.Code)
			tot, st := a.requestAccs(int(s.Stage), int(s.Request))
			tot.addRPC(e.Code)
			st.addRPC(e.Code)
			a.secondFor(s.Done).rpc[e.Code]++
		}
		if e.Message != "" {
			key := strconv.Itoa(int(e.Code))
			if _, ok := a.rpcMsg[key]; !ok {
				a.rpcMsg[key] = e.Message
			}
		}
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

func (a *Aggregator) stageAcc(i int) *spanAcc {
	if i < 0 || i >= len(a.stages) {
		i = len(a.stages) - 1
	}
	return a.stages[i]
}

// requestAccs are the accumulators of request req, for the run and for the stage.
func (a *Aggregator) requestAccs(stage, req int) (total, inStage *spanAcc) {
	if req < 0 || req >= len(a.cfg.Requests) {
		req = 0 // cannot happen: workers only send mix entries
	}
	stage = min(max(stage, 0), len(a.stages)-1)
	if a.reqTotal == nil {
		a.reqTotal = make([]*spanAcc, len(a.cfg.Requests))
		a.reqStages = make([][]*spanAcc, len(a.stages))
	}
	if a.reqTotal[req] == nil {
		a.reqTotal[req] = newRequestAcc()
	}
	if a.reqStages[stage] == nil {
		a.reqStages[stage] = make([]*spanAcc, len(a.cfg.Requests))
	}
	if a.reqStages[stage][req] == nil {
		a.reqStages[stage][req] = newRequestAcc()
	}
	return a.reqTotal[req], a.reqStages[stage][req]
}

// byRequest derives the per-request summaries of a stage (stage < 0: the whole run).
func (a *Aggregator) byRequest(stage int) map[string]Summary {
	accs := a.reqTotal
	if stage >= 0 {
		if stage >= len(a.reqStages) {
			return nil
		}
		accs = a.reqStages[stage]
	}
	if len(accs) == 0 {
		return nil
	}
	out := map[string]Summary{}
	for i, acc := range accs {
		if acc == nil {
			continue
		}
		sent := a.counters.RequestSentIn(stage, i)
		out[requestName(a.cfg.Requests, i)] = acc.summary(sent, sent, 0)
	}
	return out
}

// requestName is the label of request i: its name, else "request N".
func requestName(reqs []Request, i int) string {
	if reqs[i].Name != "" {
		return reqs[i].Name
	}
	return "request " + strconv.Itoa(i+1)
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
		// The second's drops are those counted while it ran: up to when the next second opened
		// (within a publish interval of its start), not up to now, rowGrace later, which would
		// file half a second of the next second's drops under this one.
		upTo, sentUpTo := dropped, sent
		if len(a.open) > 1 {
			upTo, sentUpTo = a.open[1].dropMark, a.open[1].sentMark
		}
		row := s.row(sent-a.total.completed, sentUpTo-a.sentUpTo, upTo-a.dropped, span)
		a.dropped, a.sentUpTo = upTo, sentUpTo
		a.tester.Lag = 0
		if a.lagIn != nil {
			a.tester.Lag = a.lagIn(s.t)
		}
		row.Saturated = testerBehind(a.tester.Lag, row.Latency.P99)
		a.tester.Behind = row.Saturated
		a.measureCPU(now)
		a.timeline = append(a.timeline, row)
		a.open = a.open[1:]
		a.spare = append(a.spare, s)
	}
}

// measureCPU updates the cores the process used since the last measure, at least a second
// before (shorter spans would read the scheduler's jitter, not the load).
func (a *Aggregator) measureCPU(now time.Duration) {
	a.tester.Cores = runtime.GOMAXPROCS(0)
	if now-a.wallAt < time.Second/2 && a.wallAt > 0 {
		return
	}
	cpu, ok := processCPU()
	if !ok {
		a.tester.CPU = -1
		return
	}
	if a.wallAt > 0 {
		a.tester.CPU = (cpu - a.cpuAt).Seconds() / (now - a.wallAt).Seconds()
	}
	a.cpuAt, a.wallAt = cpu, now
}

// refreshStages recomputes every stage's summary as of now; done once a second, not every frame,
// because percentiles cost a pass over each histogram.
func (a *Aggregator) refreshStages(now time.Duration) {
	view := make([]StageStats, len(a.stages))
	for i := range a.stages {
		view[i] = StageStats{Index: i, Summary: a.stageSummary(i, now)}
		// Each request's rate in the stage is over the stage's active time too.
		sum, active := &view[i].Summary, a.counters.StageActive(i, now)
		sum.ByRequest = a.byRequest(i)
		for name, r := range sum.ByRequest {
			r.setDuration(active)
			sum.ByRequest[name] = r
		}
		if i < len(a.cfg.Plan.Stages) {
			view[i].Spec = a.cfg.Plan.Stages[i]
		}
	}
	a.stageView = view
}

// stageSummary is stage i's numbers as of now (without the per-request ones). Its duration is
// the time the stage was active, and its rate is over that time: a stage left and revisited with
// next/previous is not charged for the stages run in between.
func (a *Aggregator) stageSummary(i int, now time.Duration) Summary {
	sc := a.counters.Stage(i)
	s := a.stageAcc(i).summary(sc.Scheduled.Load(), sc.Sent.Load(), sc.Dropped.Load())
	s.setDuration(a.counters.StageActive(i, now))
	return s
}

// view builds an immutable Stats. Rows and stage views are shared: they are never modified once
// made (a closed row is final), and slices are cut to their length so appends cannot reach them.
func (a *Aggregator) view(done bool) *Stats {
	scheduled, sent, dropped := a.counters.Totals()
	ps := a.plan()
	ps.Saturated = a.tester.Behind
	if done {
		ps.State = StateDone
	}
	st := &Stats{
		Name:       a.cfg.Name,
		Target:     a.cfg.DisplayURL,
		Mode:       a.cfg.Mode,
		Elapsed:    time.Since(a.start),
		Plan:       ps,
		Total:      a.total.summary(scheduled, sent, dropped),
		Stages:     a.stageView,
		Events:     a.events.List(),
		RPCMessage: copyMap(a.rpcMsg),
		Headers:    copyMap(a.headers),
		Done:       done,
		EndReason:  a.endReason,
		Tester:     a.tester,
	}
	if done {
		st.Elapsed = a.endedAt
	}
	a.addConnections(&st.Total)
	st.Total.ByRequest = a.byRequest(-1)
	st.Current = a.stageSummary(ps.Stage, st.Elapsed)
	st.Histogram = a.stageAcc(ps.Stage).buckets.view()
	n := len(a.timeline)
	from := n - statsWindow
	if from < 0 {
		from = 0
	}
	st.Timeline = a.timeline[from:n:n]
	if n > 0 {
		st.Last = a.timeline[n-1]
	}
	return st
}

// addConnections fills the connection-setup figures, measured apart from request latency.
func (a *Aggregator) addConnections(s *Summary) {
	dials := a.counters.Dials.Load()
	s.Connections.Dialed = dials
	if dials > 0 {
		s.Connections.DialMean = roundMs(float64(a.counters.DialNanos.Load()) / float64(dials) / 1e6)
		s.Connections.DialMax = roundMs(float64(a.counters.DialMax.Load()) / 1e6)
	}
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
