package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestSnapshotNowCountsQueued: with every connection held by a target that never answers, the
// schedule's requests wait in the backlog. A snapshot taken then (a periodic save) counts them
// as queued, so its books balance; before, it read "scheduled 61 ≠ sent 6 + dropped 0".
func TestSnapshotNowCountsQueued(t *testing.T) {
	srv := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
	cfg := balanceConfig(srv.URL, engine.Stage{Rate: 200, Duration: time.Minute})
	cfg.Timeout, cfg.Connections = time.Hour, 2
	r, err := engine.NewRunner(cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = r.Run(context.Background(), engine.SnapshotMeta{})
	}()
	defer func() {
		r.Controller().Stop("quit")
		r.Controller().Stop("quit") // the second stop leaves the drain at once
		<-done
	}()
	time.Sleep(500 * time.Millisecond)
	snap, err := r.SnapshotNow(engine.SnapshotMeta{})
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
