package engine

import (
	"fmt"
	"sync"

	"github.com/rpcstress/rpcstress/engine/answers"
)

// This file wires a Runner's lanes (one per target, see lane) and joins their numbers: the
// published Stats and the snapshots are the first target's, with every target's beside them.

// makeLanes makes a lane per target, the Scheduler and, with several targets, the fanout that
// feeds the lanes from it. The first lane's books are the run's counters, whose stage clock
// and pauses every lane shares.
func (r *Runner) makeLanes() error {
	cfgs := []*Config{r.cfg}
	if n := len(r.cfg.Targets); n > 0 {
		cfgs = make([]*Config, n)
		for i := range cfgs {
			cfgs[i] = laneConfig(r.cfg, i)
		}
	}
	for i, c := range cfgs {
		l := &lane{index: i, cfg: c, counters: r.counters}
		if i > 0 {
			l.counters = r.counters.sharingPlan()
		}
		if len(r.cfg.Targets) > 0 {
			l.name = r.cfg.Targets[i].Name
		}
		// A run that only holds subscriptions sends no request: no client, no workers.
		if len(c.Requests) > 0 {
			var err error
			if l.client, err = NewClient(c, l.counters); err != nil {
				return l.wrap(err)
			}
			l.client.noteTo(r.events, l.name)
		}
		r.lanes = append(r.lanes, l)
	}
	r.sched = NewScheduler(cfgs[0], r.counters, r.events, r.start)
	for _, l := range r.lanes {
		l.jobs = r.sched.jobs // the first's; the others' are made below
		l.agg = NewAggregator(l.cfg, l.counters, r.events, r.planState, r.start, r.opt.PublishEvery)
		l.agg.lagIn = r.sched.lags.worst // one schedule: its lateness is every target's
		l.agg.enc = r.lanes[0].agg.enc   // one encoder: the targets' snapshots are taken in turn
		if l.name != "" {
			l.agg.target = l.name
			l.agg.latest.Store(l.agg.view(false)) // the view before the first publish, named too
		}
		var err error
		if l.head, err = newHeadTracker(l.cfg, r.events, r.start); err != nil {
			return l.wrap(err)
		}
		if l.head != nil {
			l.agg.headIn = l.head.state
		}
	}
	if r.opt.Watch != nil {
		// The watched node's readings go with the top level's timeline only: they are of one
		// process, not of each target.
		r.lanes[0].agg.watch = r.opt.Watch
	}
	if len(r.lanes) == 1 {
		return nil
	}
	for _, l := range r.lanes[1:] {
		l.jobs = make(chan job, backlogSize(l.cfg))
	}
	if r.lanes[0].head != nil {
		shareHeads(r.lanes, r.cfg.Head.Cell)
	}
	cmp, err := newComparer(r.cfg)
	if err != nil {
		return err
	}
	r.cmp = cmp
	r.sched.fan = newFanout(r.cfg, r.lanes, cmp)
	return nil
}

// wrap names the lane's target in an error about it, in a run with several.
func (l *lane) wrap(err error) error {
	if l.name == "" {
		return err
	}
	return fmt.Errorf("target %s: %w", l.name, err)
}

// newComparer is the comparison of the targets' answers cfg asks for (package answers, its
// targets named after cfg's); nil when it asks none.
func newComparer(cfg *Config) (answerComparer, error) {
	if !cfg.CompareAnswers {
		return nil, nil
	}
	opt := cfg.Answers
	opt.Targets = make([]string, len(cfg.Targets))
	for i, t := range cfg.Targets {
		opt.Targets[i] = t.Name
	}
	c, err := answers.New(opt)
	if err != nil {
		return nil, fmt.Errorf("compare_answers: %w", err)
	}
	return c, nil
}

// Stats is the latest published view of the run; never nil. With several targets it is the
// first target's view, with every target's in Targets (the first's included) and the
// comparison's counts so far in Answers; the same view, pointer and all, until a target
// publishes a new one or the counts change, so a reader that redraws on a new view (the
// dashboard) redraws only then.
func (r *Runner) Stats() *Stats {
	st := r.lanes[0].agg.Stats()
	if len(r.lanes) == 1 {
		return st
	}
	var live *answers.Result
	if r.cmp != nil {
		l := r.cmp.Live()
		live = &l
	}
	c := &r.views
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.view != nil && c.current(r.lanes, live) {
		return c.view
	}
	v := *st // the published view is shared and immutable: this one is the Runner's
	v.Targets = make([]*Stats, len(r.lanes))
	for i, l := range r.lanes {
		v.Targets[i] = l.agg.Stats()
	}
	v.Targets[0] = st
	v.Answers = live
	c.view = &v
	return c.view
}

// statsCache is the last view of several targets Stats made.
type statsCache struct {
	mu   sync.Mutex
	view *Stats
}

// current reports whether the cached view still holds each lane's latest view and the
// answers' counts live.
func (c *statsCache) current(lanes []*lane, live *answers.Result) bool {
	for i, l := range lanes {
		if c.view.Targets[i] != l.agg.Stats() {
			return false
		}
	}
	if live == nil || c.view.Answers == nil {
		return live == nil && c.view.Answers == nil
	}
	return live.Totals == c.view.Answers.Totals
}

// SnapshotNow saves nothing; it returns a snapshot of the run so far (end_reason "running").
func (r *Runner) SnapshotNow(meta SnapshotMeta) (*Snapshot, error) {
	return r.joinSnapshots(func(a *Aggregator) (*Snapshot, error) { return a.SnapshotNow(meta) })
}

// snapshot is the final snapshot of a finished run.
func (r *Runner) snapshot(meta SnapshotMeta) (*Snapshot, error) {
	return r.joinSnapshots(func(a *Aggregator) (*Snapshot, error) { return a.Snapshot(meta) })
}

// joinSnapshots takes each lane's snapshot: the first target's is the run's top level, so a
// reader that knows nothing of targets reads a valid run, and with several targets it holds
// every target's share (Targets) and the comparison of their answers (Answers).
func (r *Runner) joinSnapshots(take func(*Aggregator) (*Snapshot, error)) (*Snapshot, error) {
	top, err := take(r.lanes[0].agg)
	if err != nil || len(r.lanes) == 1 {
		return top, err
	}
	top.Targets = make([]TargetRun, len(r.lanes))
	for i, l := range r.lanes {
		s := top
		if i > 0 {
			if s, err = take(l.agg); err != nil {
				return nil, l.wrap(err)
			}
		}
		top.Targets[i] = TargetRunOf(l.name, s)
	}
	if r.cmp != nil {
		top.Answers = r.cmp.Result()
	}
	return top, nil
}
