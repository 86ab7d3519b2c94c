package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestRunnerStopEndsDrain: against a target that never reads, requests in flight would hold
// the drain for the whole timeout (an hour here). A stop that finds the schedule over (a
// second stop, or a first one after the plan ran out) ends the drain at once: Run returns
// within seconds, what was in flight stays counted in flight, the backlog is counted dropped,
// the books balance, and the end reason is the stop's.
func TestRunnerStopEndsDrain(t *testing.T) {
	tests := []struct {
		name  string
		plan  time.Duration
		stops func(t *testing.T, r *engine.Runner)
		want  string // end reason
	}{
		// The plan ran out by itself and the run waits on the target: one stop leaves.
		{"stop after the plan ended", 300 * time.Millisecond, func(t *testing.T, r *engine.Runner) {
			waitDraining(t, r)
			r.Controller().Stop("signal:SIGINT")
		}, "signal:SIGINT"},
		// A stop mid-plan drains; a second one while draining leaves.
		{"second stop while draining", time.Minute, func(t *testing.T, r *engine.Runner) {
			time.Sleep(300 * time.Millisecond)
			r.Controller().Stop("quit")
			waitDraining(t, r)
			r.Controller().Stop("signal:SIGINT")
		}, "quit"},
		// Two stops back to back: the second may come before the first reached the schedule.
		{"two stops at once", time.Minute, func(t *testing.T, r *engine.Runner) {
			time.Sleep(300 * time.Millisecond)
			r.Controller().Stop("signal:SIGTERM")
			r.Controller().Stop("signal:SIGTERM")
		}, "signal:SIGTERM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
			cfg := balanceConfig(srv.URL, engine.Stage{Rate: 100, Duration: tt.plan})
			cfg.Timeout, cfg.Connections = time.Hour, 4
			r, err := engine.NewRunner(cfg, engine.RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				snap *engine.Snapshot
				err  error
			}
			done := make(chan result, 1)
			go func() {
				snap, err := r.Run(context.Background(), engine.SnapshotMeta{})
				done <- result{snap, err}
			}()
			tt.stops(t, r)
			left := time.Now()
			var res result
			select {
			case res = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Run still waits for the answers 10 s after the stop that should end the drain")
			}
			if res.err != nil {
				t.Fatal(res.err)
			}
			t.Logf("Run returned %s after the last stop", time.Since(left).Round(time.Millisecond))
			checkSchema(t, res.snap)
			tot := res.snap.Totals
			if err := tot.CheckInvariant(); err != nil {
				t.Error(err)
			}
			if res.snap.EndReason != tt.want {
				t.Errorf("end reason %q, want %q", res.snap.EndReason, tt.want)
			}
			if tot.Inflight != int64(cfg.Connections) || tot.Completed != 0 || tot.Dropped == 0 {
				t.Errorf("inflight %d completed %d dropped %d: want every connection's request in flight, none answered, the backlog dropped",
					tot.Inflight, tot.Completed, tot.Dropped)
			}
			if !hasEvent(res.snap, "drain", "left on a stop") || !hasEvent(res.snap, "stop", "leaving without waiting") {
				t.Errorf("events do not record the stop that ended the drain: %+v", res.snap.Events)
			}
		})
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

func hasEvent(s *engine.Snapshot, kind, detail string) bool {
	for _, e := range s.Events {
		if e.Kind == kind && strings.Contains(e.Detail, detail) {
			return true
		}
	}
	return false
}
