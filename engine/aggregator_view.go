package engine

import (
	"runtime"
	"time"
)

// This file is the aggregator's derived views: the summaries and the Stats it publishes, made
// from what it counted (accumulate cheaply, derive late).

// measureCPU updates the cores the process used since the last measure, at least half a second
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
			r.SetDuration(active)
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
	bk := a.books(i)
	bk.scheduled, bk.sent, bk.dropped = a.counters.Stage(i).Books()
	s := a.stageAcc(i).summary(bk)
	s.SetDuration(a.counters.StageActive(i, now))
	return s
}

// view builds an immutable Stats. Rows and stage views are shared: they are never modified once
// made (a closed row is final), and slices are cut to their length so appends cannot reach them.
func (a *Aggregator) view(done bool) *Stats {
	bk := a.books(-1)
	bk.scheduled, bk.sent, bk.dropped = a.counters.Totals()
	ps := a.plan()
	ps.Saturated = a.tester.Behind
	if done {
		ps.State = StateDone
	}
	st := &Stats{
		Name:       a.cfg.Name,
		Target:     a.cfg.DisplayURL,
		TargetName: a.target,
		Mode:       a.cfg.Mode,
		Elapsed:    time.Since(a.start),
		Plan:       ps,
		Total:      a.total.summary(bk),
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
	st.LatencyByRequest = a.latencyByRequest()
	st.Current = a.stageSummary(ps.Stage, st.Elapsed)
	st.Histogram = a.stageAcc(ps.Stage).buckets.view()
	n := len(a.timeline)
	from := n - statsWindow
	if from < 0 {
		from = 0
	}
	st.Timeline = a.timeline[from:n:n]
	if a.headIn != nil {
		st.Head = a.headIn(st.Elapsed)
		st.Head.Advance, st.Head.AdvanceOver = HeadAdvance(a.timeline, n-1, HeadWindow)
	}
	if a.watch != nil {
		st.Watch = a.watch.Info()
	}
	if a.subs != nil {
		st.Subs = a.subs.View()
	}
	if n > 0 {
		st.Last = a.timeline[n-1]
		if a.lastWhole >= 0 {
			st.Last = a.timeline[a.lastWhole]
		}
	}
	return st
}

// latencyByRequest is the run's latency buckets per request row that has answers.
func (a *Aggregator) latencyByRequest() map[string]LatencyCounts {
	out := make(map[string]LatencyCounts, len(a.reqTotal))
	for row, acc := range a.reqTotal {
		if acc != nil {
			out[a.rows.names[row]] = LatencyCounts{Buckets: acc.buckets, Sum: time.Duration(acc.latency.sumUs) * time.Microsecond}
		}
	}
	return out
}

// addConnections fills the connection-setup figures, measured apart from request latency.
func (a *Aggregator) addConnections(s *Summary) {
	dials := a.counters.Dials.Load()
	s.Connections.Dialed = dials
	s.Connections.Redialed = a.counters.Redials.Load()
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
