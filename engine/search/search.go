package search

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// Prober runs probes against the target. EngineProber is the real one; tests use oracles.
type Prober interface {
	// Probe runs one sustained probe and returns its measured window. A cancelled ctx cuts
	// the probe short (Measure.Stopped).
	Probe(ctx context.Context, spec ProbeSpec) (Measure, error)
	// Burst sends nothing for gap, then sends at rate for window, and returns the window.
	Burst(ctx context.Context, gap time.Duration, rate engine.Rate, window time.Duration) (Measure, error)
}

// ProbeSpec is one sustained probe: Rate held for Settle (not counted), then for Measure.
type ProbeSpec struct {
	Rate            engine.Rate
	Settle, Measure time.Duration
	// Prefill, when above 0, sends that many requests at PrefillRate before the settle window.
	// Once a limiter has shown itself, each probe fills its bucket first: a bucket that emptied
	// between probes (they are separate runs; a delaying limiter even drains while the last
	// held requests finish) would absorb a short probe above its rate, which would then pass.
	Prefill     int
	PrefillRate engine.Rate
}

// Live is implemented by probers that can show the probe in progress (the dashboard's view).
type Live interface {
	Live() *engine.Stats
}

// Progress is an immutable view of a search, published as it goes (the dashboard and the
// headless lines read it).
type Progress struct {
	Settings engine.SearchSettings
	SLO      engine.SearchSLO
	SLOText  string
	// Probes are the probes finished so far.
	Probes []engine.SearchProbe
	// Current is the probe running now; nil between probes and at the end.
	Current *Current
	// Good and Bad are the current bounds (0: none yet).
	Good, Bad float64
	Elapsed   time.Duration
	Stopping  bool
	// Result is set when the search is over.
	Result *engine.SearchResult
}

// Current is the probe in progress.
type Current struct {
	N       int
	Rate    float64
	Step    string
	Phase   string // "probe" (settle then measure) or "burst" (idle gap then burst)
	Started time.Time
	Settle  time.Duration // the settle (or idle gap) part
	Measure time.Duration // the measured (or burst) part
}

// Outcome is a finished search: the snapshot's search section and every probe's measure.
type Outcome struct {
	Result   engine.SearchResult
	Measures []Measure // one per Result.Probes entry
	Burst    *Measure  // the burst probe, if one ran
	Started  time.Time
	Ended    time.Time
}

// Searcher runs one search. Make it with New, call Run once; Stop and Progress may be called
// from other goroutines.
type Searcher struct {
	cfg    Config
	prober Prober
	now    func() time.Time
	strat  *strategy
	start  time.Time // when Run began

	progress atomic.Pointer[Progress]
	mu       sync.Mutex
	stopped  bool
	cancel   context.CancelFunc // of the probe in progress
}

// New prepares a search with prober; now is the clock (nil: time.Now), a parameter so tests
// can run the budget on a fake clock.
func New(cfg Config, prober Prober, now func() time.Time) (*Searcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxProbes <= 0 {
		cfg.MaxProbes = defaultMaxProbes
	}
	if now == nil {
		now = time.Now
	}
	s := &Searcher{cfg: cfg, prober: prober, now: now, strat: newStrategy(cfg)}
	s.progress.Store(&Progress{Settings: cfg.settings(), SLO: cfg.SLO.Record(), SLOText: cfg.SLO.String()})
	return s, nil
}

// Progress is the latest view of the search; never nil.
func (s *Searcher) Progress() *Progress { return s.progress.Load() }

// LiveStats is the probe in progress as the engine sees it, when the prober can tell; else nil.
func (s *Searcher) LiveStats() *engine.Stats {
	if l, ok := s.prober.(Live); ok {
		return l.Live()
	}
	return nil
}

// Leaver is implemented by probers whose probe, once cut short, may still wait for answers in
// flight (EngineProber drains them, up to the timeout): Leave ends that wait at once.
type Leaver interface {
	Leave()
}

// Stop ends the search: the probe in progress is cut short (and not judged), no other starts,
// and the best answer so far stands. A second Stop (a second Ctrl-C) also ends the cut probe's
// wait for answers in flight, when the prober can (Leaver): the user wants out now.
func (s *Searcher) Stop() {
	s.mu.Lock()
	again := s.stopped
	s.stopped = true
	if s.cancel != nil {
		s.cancel()
	}
	p := *s.progress.Load()
	p.Stopping = true
	s.progress.Store(&p)
	s.mu.Unlock()
	if l, ok := s.prober.(Leaver); ok && again {
		l.Leave()
	}
}

// probeCtx makes the context of the next probe, or reports that the search was stopped.
func (s *Searcher) probeCtx(ctx context.Context) (context.Context, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || ctx.Err() != nil {
		return nil, false
	}
	pctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	return pctx, true
}

func (s *Searcher) endProbe() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
}

func (s *Searcher) isStopped(ctx context.Context) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped || ctx.Err() != nil
}

// Run searches until the bracket is within the precision, the budget or the probe count runs
// out, the rate reaches the maximum, nothing meets the SLO, or Stop / ctx ends it. Then it
// infers the limiter (with a burst probe if the budget allows and any probe was rate-limited).
// An error is returned only when a probe could not run at all; the outcome so far comes with it.
func (s *Searcher) Run(ctx context.Context) (*Outcome, error) {
	out := &Outcome{Started: s.now()}
	s.start = out.Started
	var measures []Measure
	var probes []engine.SearchProbe
	reason := ""
	var runErr error
	// probeTime is how long a probe takes: as planned, or as long as the last one really took
	// (a runner's start and drain add a little), so a probe never ends past the budget.
	probeTime := s.cfg.Settle + s.cfg.Probe
	for reason == "" {
		rate, step, done, why := s.strat.next()
		switch {
		case done:
			reason = why
			continue
		case len(probes) >= s.cfg.MaxProbes:
			reason = EndProbes
			continue
		case s.since(out.Started)+probeTime > s.cfg.Budget:
			reason = EndBudget
			continue
		}
		pctx, ok := s.probeCtx(ctx)
		if !ok {
			reason = EndStopped
			continue
		}
		startS := s.since(out.Started).Seconds()
		spec := ProbeSpec{Rate: engine.Rate(rate), Settle: s.cfg.Settle, Measure: s.cfg.Probe}
		spec.Prefill, spec.PrefillRate = prefillFor(probes, rate)
		settle := s.cfg.Settle + prefillTime(spec)
		s.publish(probes, &Current{N: len(probes) + 1, Rate: rate, Step: step, Phase: "probe", Started: s.now(), Settle: settle, Measure: s.cfg.Probe}, out.Started)
		began := s.now()
		m, err := s.prober.Probe(pctx, spec)
		s.endProbe()
		probeTime = max(probeTime, s.since(began))
		if err != nil {
			runErr = fmt.Errorf("probe %d at %s: %w", len(probes)+1, engine.Rate(rate), err)
			reason = EndStopped
			continue
		}
		m.Rate = engine.Rate(rate)
		if s.isStopped(ctx) {
			m.Stopped = true
		}
		breaches := s.cfg.SLO.Judge(&m)
		rec := s.cfg.SLO.record(len(probes)+1, step, startS, s.cfg.Settle.Seconds(), &m, breaches)
		rec.Prefill, rec.PrefillRate = spec.Prefill, float64(spec.PrefillRate)
		measures = append(measures, m)
		probes = append(probes, rec)
		if m.Stopped {
			reason = EndStopped
			continue
		}
		s.strat.add(s.judged(rate, step, &m, len(breaches) == 0))
		markSuperseded(probes, s.strat)
		s.publish(probes, nil, out.Started)
	}
	res := engine.SearchResult{Settings: s.cfg.settings(), SLO: s.cfg.SLO.Record(), Probes: probes, EndReason: reason}
	res.Answer = answer(s.strat, probes, reason)
	if runErr == nil {
		lim, burst := s.inferLimiter(ctx, probes, measures, out.Started)
		res.Limiter, out.Burst = lim, burst
	}
	out.Ended = s.now()
	res.ElapsedS = round3(out.Ended.Sub(out.Started).Seconds())
	out.Result, out.Measures = res, measures
	final := s.view(probes, nil, out.Started)
	final.Result = &out.Result
	s.progress.Store(final)
	return out, runErr
}

// judged is the strategy's view of a probe.
func (s *Searcher) judged(rate float64, step string, m *Measure, pass bool) result {
	r := result{rate: rate, pass: pass, step: step, okRate: m.Goodput()}
	// Limited: the SLO's share of rejections was passed while clearly less was accepted than
	// offered, so the accepted rate is a limiter's, not a node that answers what it gets.
	r.limited = !pass && m.share(m.Summary.Limited) > s.cfg.SLO.MaxLimitedPct && r.okRate > 0 && r.okRate < rate*(1-s.cfg.SLO.MaxLimitedPct/100)
	return r
}

// markSuperseded copies the strategy's superseded flags onto the records.
func markSuperseded(probes []engine.SearchProbe, st *strategy) {
	for i := range probes {
		if i < len(st.results) {
			// Stopped probes end the search, so records and results stay index-aligned.
			probes[i].Superseded = st.results[i].superseded
		}
	}
}

func (s *Searcher) since(t time.Time) time.Duration { return s.now().Sub(t) }

// view is a Progress for the probes so far.
func (s *Searcher) view(probes []engine.SearchProbe, cur *Current, started time.Time) *Progress {
	good, bad := s.strat.bounds()
	prev := s.progress.Load()
	return &Progress{
		Settings: prev.Settings, SLO: prev.SLO, SLOText: prev.SLOText,
		Probes: append([]engine.SearchProbe(nil), probes...), Current: cur,
		Good: good, Bad: bad, Elapsed: s.since(started), Stopping: prev.Stopping,
	}
}

func (s *Searcher) publish(probes []engine.SearchProbe, cur *Current, started time.Time) {
	s.progress.Store(s.view(probes, cur, started))
}

// answer states the result: the highest trusted pass, the lowest trusted fail and why.
func answer(st *strategy, probes []engine.SearchProbe, reason string) engine.SearchAnswer {
	good, bad := st.bounds()
	var a engine.SearchAnswer
	for _, p := range probes {
		if p.Superseded || p.Verdict == "stopped" {
			continue
		}
		if p.Verdict == "pass" && p.Rate == round3(good) && good > 0 {
			a.Found, a.Rate, a.Goodput = true, p.Rate, p.Goodput
		}
		if p.Verdict == "fail" && p.Rate == round3(bad) && bad > 0 {
			a.FirstBad, a.Breaches = p.Rate, p.Breaches
			a.TesterLimited = testerOnly(p.Breaches)
		}
	}
	if a.Found && a.FirstBad > 0 {
		a.GapPct = round3(100 * (a.FirstBad - a.Rate) / a.Rate)
	}
	a.Text = answerText(a, reason, probes)
	return a
}

func answerText(a engine.SearchAnswer, reason string, probes []engine.SearchProbe) string {
	why := ""
	for i, b := range a.Breaches {
		if i > 0 {
			why += "; "
		}
		why += b.Text
	}
	var t string
	switch {
	case len(probes) == 0:
		t = "no probe ran"
	case !a.Found && a.FirstBad > 0:
		t = fmt.Sprintf("no rate met the SLO: the lowest tried, %s, failed (%s)", rateText(a.FirstBad), why)
	case !a.Found:
		t = "no probe finished: no answer"
	case a.FirstBad == 0 && reason == EndMax:
		t = fmt.Sprintf("the SLO held at every rate up to the maximum, %s (goodput %s ok/s): the limit is higher; raise the maximum rate to find it", rateText(a.Rate), fmtNum(a.Goodput))
	case a.FirstBad == 0:
		t = fmt.Sprintf("the SLO held at every rate tried, up to %s (goodput %s ok/s)", rateText(a.Rate), fmtNum(a.Goodput))
	default:
		t = fmt.Sprintf("%s met the SLO (goodput %s ok/s); %s did not: %s", rateText(a.Rate), fmtNum(a.Goodput), rateText(a.FirstBad), why)
		if a.TesterLimited {
			t += " — the tester itself could not keep up there, so this limit is the tester's, not the node's"
		}
	}
	switch reason {
	case EndBudget:
		t += "; the time budget ran out before the limit was bracketed within the precision"
	case EndStopped:
		t += "; the search was stopped: this is the best answer so far"
	case EndProbes:
		t += "; the probe count limit was reached"
	}
	return t
}
