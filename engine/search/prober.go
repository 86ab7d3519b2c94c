package search

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// EngineProber runs each probe as its own engine.Runner over Config (the profile's target,
// requests, connections and limits; its plan is replaced by the probe's two stages), so each
// measured window has its own histograms and the engine's bookkeeping (scheduled = sent +
// dropped …) holds per probe.
type EngineProber struct {
	Config  *engine.Config
	Options engine.RunOptions
	Meta    engine.SnapshotMeta

	mu  sync.Mutex
	cur *engine.Runner
}

// Stage names of a probe's plan.
const (
	StagePrefill = "prefill"
	StageSettle  = "settle"
	StageMeasure = "measure"
	StageIdle    = "idle"
	StageBurst   = "burst"
)

// Probe sends the prefill (if any), then holds the rate for settle, then for measure.
func (p *EngineProber) Probe(ctx context.Context, spec ProbeSpec) (Measure, error) {
	var stages []engine.Stage
	if d := prefillTime(spec); d > 0 {
		stages = append(stages, engine.Stage{Name: StagePrefill, Rate: spec.PrefillRate, Duration: d})
	}
	settleAt := len(stages)
	if spec.Settle > 0 {
		stages = append(stages, engine.Stage{Name: StageSettle, Rate: spec.Rate, Duration: spec.Settle})
	}
	stages = append(stages, engine.Stage{Name: StageMeasure, Rate: spec.Rate, Duration: spec.Measure})
	snap, err := p.run(ctx, stages)
	if err != nil {
		return Measure{}, err
	}
	m := measureOf(snap, spec.Measure)
	if spec.Settle > 0 && len(snap.Stages) > settleAt+1 {
		st := snap.Stages[settleAt].Summary
		m.SettleOK, m.SettleLimited, m.SettleSeconds = st.OK, st.Limited, spec.Settle.Seconds()
	}
	return m, nil
}

// Burst sends nothing for gap (a rate-0 stage), then rate for window.
func (p *EngineProber) Burst(ctx context.Context, gap time.Duration, rate engine.Rate, window time.Duration) (Measure, error) {
	stages := []engine.Stage{{Name: StageIdle, Rate: 0, Duration: gap}, {Name: StageBurst, Rate: rate, Duration: window}}
	snap, err := p.run(ctx, stages)
	if err != nil {
		return Measure{}, err
	}
	return measureOf(snap, window), nil
}

// Leave implements Leaver: the probe in progress, already stopped, stops waiting for its
// answers in flight (the engine's Stop on a run whose schedule is over ends its drain).
func (p *EngineProber) Leave() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur != nil {
		// Twice: a stop that finds the run stopped already ends its drain, and the cancel that
		// cut the probe may not have reached the run's schedule yet.
		ctl := p.cur.Controller()
		ctl.Stop("stop")
		ctl.Stop("stop")
	}
}

// Live is the probe in progress as the engine publishes it; nil between probes.
func (p *EngineProber) Live() *engine.Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur == nil {
		return nil
	}
	return p.cur.Stats()
}

// run runs one plan to its end (or until ctx is cancelled) and returns its snapshot.
func (p *EngineProber) run(ctx context.Context, stages []engine.Stage) (*engine.Snapshot, error) {
	if p.Config == nil {
		return nil, errors.New("search: EngineProber without a Config")
	}
	cfg := *p.Config
	cfg.Plan = engine.Plan{Stages: stages}
	cfg.MaxRequests = 0
	cfg.Mode = engine.ModeOpen
	r, err := engine.NewRunner(&cfg, p.Options)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.cur = r
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.cur = nil
		p.mu.Unlock()
	}()
	return r.Run(ctx, p.Meta)
}

// measureOf reads the last stage of a probe's run: its summary, its length (as planned, or as
// far as it got when the run was cut short) and its saturated seconds.
func measureOf(snap *engine.Snapshot, planned time.Duration) Measure {
	last := len(snap.Stages) - 1
	m := Measure{Snapshot: snap, Seconds: planned.Seconds()}
	if last < 0 {
		m.Stopped = true
		return m
	}
	m.Summary = snap.Stages[last].Summary
	var begin time.Duration
	for _, st := range snap.Stages[:last] {
		begin += st.Spec.Duration
	}
	if snap.EndReason != engine.EndCompleted {
		m.Stopped = true
		// The window ended early: its length is from its start to the run's end.
		m.Seconds = max(snap.EndedAt.Sub(snap.StartedAt)-begin, 0).Seconds()
	}
	// Only the seconds of the measured window count: the rows after it (answers still coming
	// in, the run's last partial second) carry the last stage too, and a late wake near the
	// window's end would mark them saturated ("saturated for 4 of 3 s").
	end := begin.Seconds() + m.Seconds
	for _, r := range snap.Timeline {
		if r.Stage == last && r.Saturated && float64(r.T) < end && float64(r.T+1) > begin.Seconds() {
			m.SaturatedSeconds++
		}
		// Answers by the second they came back, whatever stage sent them: in steady state the
		// settle window's late answers make up for the window's own that come after it.
		if float64(r.T) >= begin.Seconds() && float64(r.T+1) <= end {
			m.Answered += r.OK + r.Limited + r.Failed
			m.AnsweredSeconds++
		}
	}
	m.SaturatedSeconds = min(m.SaturatedSeconds, int(math.Ceil(m.Seconds)))
	return m
}
