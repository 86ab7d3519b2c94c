package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// stuckRun is a run against a target that never reads: every connection's request stays in
// flight for the hour-long timeout, and the schedule's requests after those wait in the backlog.
type stuckRun struct {
	r    *engine.Runner
	cfg  *engine.Config
	snap *engine.Snapshot // Run's result, once done is closed
	err  error
	done chan struct{}
}

// startStuck starts a stuck run of one stage over conns connections.
func startStuck(t *testing.T, stage engine.Stage, conns int) *stuckRun {
	t.Helper()
	srv := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
	cfg := balanceConfig(srv.URL, stage)
	cfg.Timeout, cfg.Connections = time.Hour, conns
	r, err := engine.NewRunner(cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := &stuckRun{r: r, cfg: cfg, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.snap, s.err = r.Run(context.Background(), engine.SnapshotMeta{})
	}()
	return s
}

// wait waits for Run to return, at most 10 s, and for its snapshot.
func (s *stuckRun) wait(t *testing.T) *engine.Snapshot {
	t.Helper()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run still waits for the answers 10 s after the stop that should end the drain")
	}
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.snap
}

// TestRunnerStopEndsDrain: against a target that never reads, requests in flight would hold
// the drain for the whole timeout (an hour here). A stop that finds the schedule over (a
// second stop, or a first one after the plan ran out) ends the drain at once: Run returns
// within seconds, what was in flight stays counted in flight, the backlog is counted dropped,
// the books balance, and the end reason is the stop's.
func TestRunnerStopEndsDrain(t *testing.T) {
	tests := []struct {
		name     string
		plan     time.Duration
		stops    []string // the stops' reasons, 300 ms into the run
		draining int      // the stop before which the run has started draining; -1: none
		want     string   // end reason
	}{
		// The plan ran out by itself and the run waits on the target: one stop leaves.
		{"stop after the plan ended", 300 * time.Millisecond, []string{"signal:SIGINT"}, 0, "signal:SIGINT"},
		// A stop mid-plan drains; a second one while draining leaves.
		{"second stop while draining", time.Minute, []string{"quit", "signal:SIGINT"}, 1, "quit"},
		// Two stops back to back: the second may come before the first reached the schedule.
		{"two stops at once", time.Minute, []string{"signal:SIGTERM", "signal:SIGTERM"}, -1, "signal:SIGTERM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startStuck(t, engine.Stage{Rate: 100, Duration: tt.plan}, 4)
			time.Sleep(300 * time.Millisecond)
			for i, reason := range tt.stops {
				if i == tt.draining {
					waitDraining(t, s.r)
				}
				s.r.Controller().Stop(reason)
			}
			left := time.Now()
			snap := s.wait(t)
			t.Logf("Run returned %s after the last stop", time.Since(left).Round(time.Millisecond))
			checkSchema(t, snap)
			tot := snap.Totals
			if err := tot.CheckInvariant(); err != nil {
				t.Error(err)
			}
			if snap.EndReason != tt.want {
				t.Errorf("end reason %q, want %q", snap.EndReason, tt.want)
			}
			if tot.Inflight != int64(s.cfg.Connections) || tot.Completed != 0 || tot.Dropped == 0 {
				t.Errorf("inflight %d completed %d dropped %d: want every connection's request in flight, none answered, the backlog dropped",
					tot.Inflight, tot.Completed, tot.Dropped)
			}
			if !hasEvent(snap, "drain", "left on a stop") || !hasEvent(snap, "stop", "leaving without waiting") {
				t.Errorf("events do not record the stop that ended the drain: %+v", snap.Events)
			}
		})
	}
}

// TestSnapshotNowCountsQueued: with every connection held by a target that never answers, the
// schedule's requests wait in the backlog. A snapshot taken then (a periodic save) counts them
// as queued, so its books balance; before, it read "scheduled 61 ≠ sent 6 + dropped 0".
func TestSnapshotNowCountsQueued(t *testing.T) {
	s := startStuck(t, engine.Stage{Rate: 200, Duration: time.Minute}, 2)
	defer func() {
		s.r.Controller().Stop("quit")
		s.r.Controller().Stop("quit") // the second stop leaves the drain at once
		s.wait(t)
	}()
	time.Sleep(500 * time.Millisecond)
	snap, err := s.r.SnapshotNow(engine.SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	tot := snap.Totals
	if tot.Queued == 0 {
		t.Fatalf("nothing queued: scheduled %d sent %d dropped %d", tot.Scheduled, tot.Sent, tot.Dropped)
	}
	if err := tot.CheckInvariant(); err != nil {
		t.Fatalf("running snapshot: %v", err)
	}
	for i, st := range snap.Stages {
		if err := st.Summary.CheckInvariant(); err != nil {
			t.Errorf("stage %d: %v", i+1, err)
		}
	}
}

// waitDraining waits until the schedule has ended and the run waits for answers.
func waitDraining(t *testing.T, r *engine.Runner) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for r.Stats().Plan.State != engine.StateDraining {
		if time.Now().After(deadline) {
			t.Fatalf("the run never started draining: %+v", r.Stats().Plan)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hasEvent reports whether the snapshot has an event of kind whose detail holds detail.
func hasEvent(s *engine.Snapshot, kind, detail string) bool {
	for _, e := range s.Events {
		if e.Kind == kind && strings.Contains(e.Detail, detail) {
			return true
		}
	}
	return false
}
