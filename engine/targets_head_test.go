package engine_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/headtest"
)

// waitFor polls cond every 10 ms for up to 3 s; false when it never held.
func waitFor(cond func() bool) bool {
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// TestTargetsFollowLowestHead: with several targets each one's head is followed apart, and the
// head the templates send ({{head}}, {{recent N}}) is the lowest of them, as they move: the
// reference node is read once for all and shown beside each; each target's Chain section
// holds its own head, and its events say whose head went stale.
func TestTargetsFollowLowestHead(t *testing.T) {
	a := headtest.Start(t, "evm", 100)
	b := headtest.Start(t, "evm", 90)
	ref := headtest.Start(t, "evm", 500)
	cfg := sideBySide(balanceConfig(a.URL, engine.Stage{Rate: 20, Duration: 2 * time.Second}), a.URL, b.URL)
	cell := &engine.HeadCell{} // the templates'
	cfg.Head = engine.HeadConfig{Chain: engine.ChainEVM, Every: 20 * time.Millisecond, Cell: cell, RefURL: ref.URL, RefDisplay: ref.URL}
	if err := engine.PrimeHead(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	if cell.Load() != 90 || ref.HeadReads() != 1 {
		t.Fatalf("primed: the templates' head %d (want b's 90), %d reads of the reference node (want 1)", cell.Load(), ref.HeadReads())
	}
	r, err := engine.NewRunner(cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steps := make(chan string, 1)
	go func() {
		// b overtakes a: a's head is now the lowest; then a moves ahead: b's; then b fails.
		b.SetHead(120)
		if !waitFor(func() bool { return cell.Load() == 100 }) {
			steps <- "b at 120: the templates' head stayed at " + strconv.FormatUint(cell.Load(), 10) + ", want a's 100"
			return
		}
		a.SetHead(130)
		if !waitFor(func() bool { return cell.Load() == 120 }) {
			steps <- "a at 130: the templates' head stayed at " + strconv.FormatUint(cell.Load(), 10) + ", want b's 120"
			return
		}
		b.Fail(500)
		steps <- ""
	}()
	snap, err := r.Run(t.Context(), engine.SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, snap)
	if msg := <-steps; msg != "" {
		t.Fatal(msg)
	}
	ca, cb := snap.Targets[0].Chain, snap.Targets[1].Chain
	if ca == nil || cb == nil || ca.Target.Head != 130 || cb.Target.Head != 120 || ca.HeadStart != 100 || cb.HeadStart != 90 {
		t.Fatalf("chains: a %+v b %+v", ca, cb)
	}
	if cb.Target.Failures == 0 || ca.Target.Failures != 0 {
		t.Errorf("failures: a %d b %d, only b failed", ca.Target.Failures, cb.Target.Failures)
	}
	// The node saw the priming read more, and maybe one more that the run's end cut off before
	// its answer was counted (as in TestRunnerFollowsHead).
	if ca.Ref == nil || cb.Ref == nil || ca.Ref.Reads != cb.Ref.Reads ||
		ref.HeadReads()-ca.Ref.Reads < 1 || ref.HeadReads()-ca.Ref.Reads > 2 {
		t.Errorf("the reference node: read %d times, a shows %+v, b %+v", ref.HeadReads(), ca.Ref, cb.Ref)
	}
	if snap.Chain == nil || snap.Chain.Target != ca.Target {
		t.Errorf("the top level's chain is not a's: %+v", snap.Chain)
	}
	stale := false
	for _, e := range snap.Events {
		stale = stale || (e.Kind == "head" && strings.HasPrefix(e.Detail, "b's head is stale at 120"))
	}
	if !stale {
		t.Errorf("no event says b's head went stale: %+v", snap.Events)
	}
}
