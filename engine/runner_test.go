package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
)

// startNode starts the mock node for the test (nodetest.Start).
func startNode(t testing.TB, cfg mocknode.Config) (*mocknode.Node, string) {
	return nodetest.Start(t, cfg)
}

func balanceConfig(url string, stages ...engine.Stage) *engine.Config {
	return &engine.Config{
		Name: "t", URL: url, DisplayURL: url, Timeout: 2 * time.Second, Connections: 32,
		Mode: engine.ModeOpen, Limits: engine.DefaultLimits(), Plan: engine.Plan{Stages: stages},
		Requests: []engine.Request{{Name: "getBalance", Weight: 1, Items: 1,
			Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}`)}},
	}
}

// run runs cfg to its end and returns its snapshot, held against the schema.
func run(t *testing.T, cfg *engine.Config) *engine.Snapshot {
	t.Helper()
	snap, _ := runWith(t, cfg)
	return snap
}

// runWith is run that also returns the runner, to ask it what the snapshot does not say.
func runWith(t *testing.T, cfg *engine.Config) (*engine.Snapshot, *engine.Runner) {
	t.Helper()
	return runOpts(t, cfg, engine.RunOptions{})
}

// runOpts is runWith with the runner's options.
func runOpts(t *testing.T, cfg *engine.Config, opts engine.RunOptions) (*engine.Snapshot, *engine.Runner) {
	t.Helper()
	r, err := engine.NewRunner(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := r.Run(context.Background(), engine.SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, snap)
	return snap, r
}

// TestRunnerCountsMatchNode: every answer the node gave is counted once, 200s and 429s alike,
// per stage and in total, and the invariant holds.
func TestRunnerCountsMatchNode(t *testing.T) {
	node, url := startNode(t, mocknode.Config{Rate: 300, Burst: 10, NoDelay: true})
	cfg := balanceConfig(url,
		engine.Stage{Rate: 200, Duration: time.Second},
		engine.Stage{Rate: 600, Duration: time.Second})
	snap := run(t, cfg)
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	st := node.Stats()
	for _, code := range []string{"200", "429"} {
		if snap.Totals.Status[code] != st.Status[code] {
			t.Errorf("status %s: rpcstress %d, node %d", code, snap.Totals.Status[code], st.Status[code])
		}
	}
	if snap.Totals.Scheduled != 800 || snap.Totals.Completed != 800 || snap.Totals.Inflight != 0 {
		t.Errorf("scheduled %d completed %d inflight %d, want 800 800 0", snap.Totals.Scheduled, snap.Totals.Completed, snap.Totals.Inflight)
	}
	if snap.Totals.Status["429"] == 0 || snap.Totals.Limited != snap.Totals.Status["429"] {
		t.Errorf("429s %d limited %d: 600/s over a 300/s limit must be limited", snap.Totals.Status["429"], snap.Totals.Limited)
	}
	if len(snap.Stages) != 2 || snap.Stages[0].Summary.Completed != 200 || snap.Stages[1].Summary.Completed != 600 {
		t.Errorf("stages: %+v", snap.Stages)
	}
	var rows int64
	for _, r := range snap.Timeline {
		for _, n := range r.Status {
			rows += n
		}
	}
	if rows != snap.Totals.Completed {
		t.Errorf("timeline rows hold %d answers, totals %d", rows, snap.Totals.Completed)
	}
	if snap.EndReason != engine.EndCompleted {
		t.Errorf("end reason %q", snap.EndReason)
	}
}

// TestRunnerStopDrains: a stop mid-run ends the schedule, drains and still accounts for all.
func TestRunnerStopDrains(t *testing.T) {
	_, url := startNode(t, mocknode.Config{Latency: 20 * time.Millisecond})
	cfg := balanceConfig(url, engine.Stage{Rate: 500, Duration: time.Minute})
	r, err := engine.NewRunner(cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(500 * time.Millisecond)
		r.Controller().Stop("quit")
	}()
	snap, err := r.Run(context.Background(), engine.SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	if snap.EndReason != "quit" || snap.Totals.Completed < 100 || snap.Totals.Inflight != 0 {
		t.Errorf("end %q completed %d inflight %d", snap.EndReason, snap.Totals.Completed, snap.Totals.Inflight)
	}
}

// TestRunnerClosedLoop: N connections back to back with a request count.
func TestRunnerClosedLoop(t *testing.T) {
	node, url := startNode(t, mocknode.Config{})
	cfg := balanceConfig(url, engine.Stage{})
	cfg.Mode = engine.ModeClosed
	cfg.MaxRequests = 2000
	cfg.Connections = 8
	snap := run(t, cfg)
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	if snap.Totals.Completed != 2000 || node.Stats().Requests != 2000 {
		t.Errorf("completed %d, node %d, want 2000", snap.Totals.Completed, node.Stats().Requests)
	}
}

// TestRunnerRevisitedStageRate: a stage left with n and revisited with b is charged only for the
// time it was active, so its rate is the rate it ran at. Stage 1 (200/s) runs 0.3 s, stage 2
// (50/s) 0.3 s, stage 1 again 0.3 s: stage 1's books read about 0.6 s at 200/s, not 0.9 s at
// 133/s (from its first send to its last answer, stage 2's time counted in).
func TestRunnerRevisitedStageRate(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	cfg := balanceConfig(url, engine.Stage{Rate: 200, Duration: time.Minute}, engine.Stage{Rate: 50, Duration: time.Minute})
	r, err := engine.NewRunner(cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctl := r.Controller()
	go func() {
		for _, step := range []func(){ctl.NextStage, ctl.PrevStage, func() { ctl.Stop("quit") }} {
			time.Sleep(300 * time.Millisecond)
			step()
		}
	}()
	snap, err := r.Run(context.Background(), engine.SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{200, 50} {
		s := snap.Stages[i].Summary
		// Wide bounds: the sleeps above are not exact, the rates are.
		if s.RPS < 0.85*want || s.RPS > 1.15*want {
			t.Errorf("stage %d: rps %.1f over %.3f s (%d answers), want about %.0f", i+1, s.RPS, s.DurationS, s.Completed, want)
		}
	}
}

// TestIdleWorkersAnswersShownLive: at a low rate every worker waits long between its sends,
// and it no longer hands its answers over as it goes idle: the aggregator collects them. They
// must still show in the live view within a publish or two, not at the worker's next send
// (here about 1.6 s later: 32 workers share 20 requests a second) nor at the end.
func TestIdleWorkersAnswersShownLive(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	cfg := balanceConfig(url, engine.Stage{Rate: 20, Duration: 3 * time.Second})
	r, err := engine.NewRunner(cfg, engine.RunOptions{PublishEvery: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *engine.Snapshot, 1)
	go func() {
		snap, err := r.Run(context.Background(), engine.SnapshotMeta{})
		if err != nil {
			t.Error(err)
		}
		done <- snap
	}()
	// Watch the view for a second and a half, from 0.5 s on (the first answers are in): the
	// mock node answers in well under a millisecond, so what is sent and unanswered for
	// longer than a couple of publishes is held back by the tester.
	began := time.Now()
	time.Sleep(500 * time.Millisecond)
	worst := int64(0)
	for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		tot := r.Stats().Total
		if tot.Completed == 0 {
			t.Fatalf("no answer shown after %v of a 20/s run", time.Since(began).Round(time.Millisecond))
		}
		worst = max(worst, tot.Inflight)
	}
	// 20/s: 0.2 s (two publishes of 100 ms, the collection within one) holds 4 sends.
	if worst > 6 {
		t.Errorf("in flight in the live view up to %d: answers wait in idle workers", worst)
	}
	snap := <-done
	if snap.Totals.Completed != snap.Totals.Sent || snap.Totals.Sent < 55 {
		t.Errorf("sent %d, completed %d: want every one of about 60 answered", snap.Totals.Sent, snap.Totals.Completed)
	}
}
