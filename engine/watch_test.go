package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

func f64(v float64) *float64 { return &v }

func use(cpu float64, rss int64) *engine.ProcUse { return &engine.ProcUse{CPU: cpu, RSS: rss} }

// TestWatchStages: a stage's figures are made from its seconds' readings alone: CPU mean and
// highest second, memory at its first and last reading, each series' mean and highest; a
// process (or series) without a reading in a stage is none, not zero; a stage without any
// reading has none.
func TestWatchStages(t *testing.T) {
	rows := []engine.Row{
		{T: 0, Stage: 0, Watch: &engine.WatchRow{Procs: []*engine.ProcUse{use(50, 100), nil}, Self: use(10, 5), Series: []*float64{f64(1), nil}}},
		{T: 1, Stage: 0, Watch: &engine.WatchRow{Procs: []*engine.ProcUse{use(150, 300), nil}, Self: use(30, 7), Series: []*float64{f64(3), nil}}},
		{T: 2, Stage: 1}, // a second without a reading
		{T: 3, Stage: 1, Watch: &engine.WatchRow{Procs: []*engine.ProcUse{use(0, 300), use(20, 9)}, Series: []*float64{nil, f64(7)}}},
		// Stage 0 again (the user went back): its figures go on from where they were.
		{T: 4, Stage: 0, Watch: &engine.WatchRow{Procs: []*engine.ProcUse{use(100, 400), nil}, Self: use(20, 9), Series: []*float64{f64(2), nil}}},
	}
	got := engine.WatchStages(rows, 3)
	s0, s1, s2 := got[0], got[1], got[2]
	if s0.Seconds != 3 || *s0.Procs[0] != (engine.ProcStage{Seconds: 3, CPUMean: 100, CPUMax: 150, RSSStart: 100, RSSEnd: 400}) || s0.Procs[1] != nil {
		t.Errorf("stage 1 procs: %+v %+v", s0.Procs[0], s0.Procs[1])
	}
	if *s0.Self != (engine.ProcStage{Seconds: 3, CPUMean: 20, CPUMax: 30, RSSStart: 5, RSSEnd: 9}) {
		t.Errorf("stage 1 self: %+v", s0.Self)
	}
	if *s0.Series[0] != (engine.SeriesStage{Mean: 2, Max: 3}) || s0.Series[1] != nil {
		t.Errorf("stage 1 series: %+v %+v", s0.Series[0], s0.Series[1])
	}
	if s1.Seconds != 1 || s1.Self != nil || *s1.Procs[1] != (engine.ProcStage{Seconds: 1, CPUMean: 20, CPUMax: 20, RSSStart: 9, RSSEnd: 9}) ||
		s1.Series[0] != nil || *s1.Series[1] != (engine.SeriesStage{Mean: 7, Max: 7}) {
		t.Errorf("stage 2: %+v", s1)
	}
	if s2.Seconds != 0 || s2.Procs != nil || s2.Self != nil || s2.Series != nil {
		t.Errorf("stage 3 (no readings): %+v", s2)
	}
	// A process at 0 % CPU all through has a maximum of 0, not of the stage before.
	if got := engine.WatchStages(rows[3:4], 2)[1].Procs[0]; got.CPUMax != 0 || got.CPUMean != 0 {
		t.Errorf("idle: %+v", got)
	}
}

// fakeWatcher reads each second t as CPU t×10 %, and records how it was run.
type fakeWatcher struct {
	mu      sync.Mutex
	started time.Time
	stopped bool
}

func (f *fakeWatcher) Run(ctx context.Context, start time.Time, event func(kind, detail string)) {
	f.mu.Lock()
	f.started = start
	f.mu.Unlock()
	event("watch", "fake started")
	<-ctx.Done()
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
}

func (f *fakeWatcher) At(t int) *engine.WatchRow {
	return &engine.WatchRow{Procs: []*engine.ProcUse{use(float64(t)*10, 1000)}}
}

func (f *fakeWatcher) Info() *engine.WatchInfo {
	return &engine.WatchInfo{Cores: 2, Procs: []engine.WatchedProc{{Spec: "node", Label: "node", PID: 1}}}
}

// TestRunnerWatch: a run with a Watcher runs it from the run's start until its end, files
// each second's reading in that second's row, shows what it watches in the live view, and
// sums it up per stage in the snapshot (which the schema holds).
func TestRunnerWatch(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	cfg := balanceConfig(url, engine.Stage{Rate: 50, Duration: 1500 * time.Millisecond}, engine.Stage{Rate: 50, Duration: time.Second})
	fw := &fakeWatcher{}
	snap, r := runOpts(t, cfg, engine.RunOptions{Watch: fw})
	if !fw.stopped || !fw.started.Equal(r.Start()) {
		t.Errorf("watcher run from %v (run started %v), stopped %v", fw.started, r.Start(), fw.stopped)
	}
	if r.Stats().Watch == nil || r.Stats().Watch.Procs[0].Label != "node" {
		t.Errorf("live view: %+v", r.Stats().Watch)
	}
	if len(snap.Timeline) < 3 {
		t.Fatalf("%d rows", len(snap.Timeline))
	}
	for _, row := range snap.Timeline {
		if row.Watch == nil || row.Watch.Procs[0].CPU != float64(row.T)*10 {
			t.Errorf("row %d: %+v", row.T, row.Watch)
		}
	}
	if snap.Watch == nil || len(snap.Watch.Stages) != 2 || snap.Watch.Stages[0].Procs[0] == nil || snap.Watch.Stages[1].Seconds == 0 {
		t.Fatalf("snapshot watch: %+v", snap.Watch)
	}
	// Stage 1 holds seconds 0 and 1 (10 % at most), stage 2 the rest.
	if p := snap.Watch.Stages[0].Procs[0]; p.CPUMax > 10 || p.RSSStart != 1000 {
		t.Errorf("stage 1: %+v", p)
	}
	found := false
	for _, e := range snap.Events {
		found = found || e.Kind == "watch" && e.Detail == "fake started"
	}
	if !found {
		t.Errorf("the watcher's event is not in %+v", snap.Events)
	}
}
