package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/headtest"
)

// TestRunnerFollowsHead: a run that follows the head reads it apart from the load (its reads
// are not in the run's books, which hold exactly the load the node saw), keeps it per second
// with a reference node's beside it (100 blocks ahead: lag 100), and records the reads in
// the snapshot's chain section, valid against the schema.
func TestRunnerFollowsHead(t *testing.T) {
	target := headtest.Start(t, "evm", 20_000_000)
	ref := headtest.Start(t, "evm", 0)
	ref.Follow(func() uint64 { return target.Head() + 100 })
	cfg := balanceConfig(target.URL, engine.Stage{Rate: 100, Duration: 2500 * time.Millisecond})
	cfg.Head = engine.HeadConfig{Chain: engine.ChainEVM, Every: 50 * time.Millisecond, RefURL: ref.URL, RefDisplay: ref.URL}
	if err := engine.PrimeHead(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	primeReads := target.HeadReads()
	stop := make(chan struct{})
	defer close(stop)
	go func() { // the chain moves on while the run goes
		for h := uint64(20_000_001); ; h++ {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				target.SetHead(h)
			}
		}
	}()
	snap := run(t, cfg)

	if snap.Totals.Completed != target.Calls() || snap.Totals.Sent != 250 {
		t.Errorf("the books: sent %d completed %d, the node answered %d load calls", snap.Totals.Sent, snap.Totals.Completed, target.Calls())
	}
	c := snap.Chain
	if c == nil || c.Name != engine.ChainEVM || c.HeadStart != 20_000_000 || c.Ref == nil || c.Ref.URL != ref.URL {
		t.Fatalf("chain %+v", c)
	}
	// The node may have seen one read more: the one the run's end cut off, which the tracker
	// does not count (it neither answered nor failed: the run left; see follow).
	if reads := target.HeadReads() - primeReads; reads-c.Target.Reads > 1 || reads < c.Target.Reads || reads < 10 || c.Target.Failures != 0 {
		t.Errorf("target reads %d failures %d, the node saw %d (the same, or one more cut off by the end)", c.Target.Reads, c.Target.Failures, reads)
	}
	if len(snap.Timeline) < 2 {
		t.Fatalf("%d rows", len(snap.Timeline))
	}
	var prev uint64
	for _, r := range snap.Timeline {
		if r.Head == nil || r.RefHead == nil {
			t.Fatalf("row %d: head %v ref %v", r.T, r.Head, r.RefHead)
		}
		// The reference is read apart from the target, by up to a read interval and more on
		// a busy machine, while the head moves every 100 ms: a few steps either way.
		if lag := int64(*r.RefHead) - int64(*r.Head); lag < 95 || lag > 105 {
			t.Errorf("row %d: head %d ref %d: lag %d, want 100 ± 5", r.T, *r.Head, *r.RefHead, lag)
		}
		if *r.Head < prev {
			t.Errorf("row %d: head went back from %d to %d", r.T, prev, *r.Head)
		}
		prev = *r.Head
	}
	if last := snap.Timeline[len(snap.Timeline)-1]; *last.Head <= 20_000_010 {
		t.Errorf("the head did not follow the chain: %d at the end", *last.Head)
	}
}
