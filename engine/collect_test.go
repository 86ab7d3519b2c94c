package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

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
