package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestE2ESubscribeSideBySide: a profile of two [[target]]s subscribes on each at its own node
// (a's ws_url beside its http url, b's ws:// url): each node is subscribed to by its target's
// subscribers alone, the report has each target's subscriptions in its sections, the
// sub_gaps threshold is judged on each target (b's node leaves heads out: b fails, a holds),
// and `rpcstress merge` keeps each target's subscriptions (the run given twice, forced: every
// count doubles).
func TestE2ESubscribeSideBySide(t *testing.T) {
	t.Parallel()
	nodeA, httpA := startNode(t, mocknode.Config{BlockTime: 100 * time.Millisecond, WallClock: true})
	nodeB, httpB := startNode(t, mocknode.Config{BlockTime: 100 * time.Millisecond, WallClock: true, SubSkipEvery: 4})
	ws := func(u string) string { return "ws" + strings.TrimPrefix(u, "http") }
	// Written with inline tables: the same profile as [[target]] … tables, on fewer lines.
	p := writeFile(t, t.TempDir(), "side.toml", fmt.Sprintf(`name = "heads-side"
timeout = "2s"
target = [{name = "a", url = %q, ws_url = %q}, {name = "b", url = %q}]
request = [{method = "eth_blockNumber"}]
stage = [{rate = "20/s", duration = "2s"}]
subscribe = [{method = "eth_subscribe", params = ["newHeads"], subscribers = 5}]
thresholds = {sub_gaps = "== 0"}
`, httpA, ws(httpA), ws(httpB)))
	r := runCLI(t, nil, p)
	mustRun(t, r, exitThresholds)
	if len(r.snap.Targets) != 2 {
		t.Fatalf("targets %+v", r.snap.Targets)
	}
	for i, node := range []*mocknode.Node{nodeA, nodeB} {
		subs := r.snap.Targets[i].Subscriptions
		st := node.Stats().WS
		if len(subs) != 1 || subs[0].Subscribed != 5 || st.Subscriptions != 5 || subs[0].Notifications > st.Notifications || subs[0].Notifications == 0 {
			t.Errorf("target %d: subscriptions %+v; its node made %d and sent %d notifications", i, subs, st.Subscriptions, st.Notifications)
		}
	}
	if a, b := r.snap.Targets[0].Subscriptions[0], r.snap.Targets[1].Subscriptions[0]; *a.Gaps != 0 || *b.Gaps == 0 {
		t.Errorf("gaps: a %d, b %d; want none on a, some on b", *a.Gaps, *b.Gaps)
	}
	_, b, _ := strings.Cut(r.stdout, "Target B")
	if !strings.Contains(b, "Subscriptions (held at the end") || !strings.Contains(r.stdout, "sub_gaps") {
		t.Errorf("the report lacks b's subscriptions or the threshold:\n%s", r.stdout)
	}
	var verdict []string
	for _, th := range r.snap.Thresholds {
		verdict = append(verdict, fmt.Sprintf("%s %v", th.Target, th.Pass))
	}
	if strings.Join(verdict, ", ") != "a true, b false" {
		t.Errorf("sub_gaps judged %v, want a true, b false", verdict)
	}
	merged := filepath.Join(t.TempDir(), "merged.json")
	if m := runVerb(t, "merge", "--force", "-o", merged, r.out, r.out); m.code != exitThresholds {
		t.Fatalf("merge: exit %d\n%s%s", m.code, m.stdout, m.stderr)
	}
	m := loadRun(t, merged)
	if mb, b := m.Targets[1].Subscriptions, r.snap.Targets[1].Subscriptions[0]; len(mb) != 1 || mb[0].Notifications != 2*b.Notifications || *mb[0].Gaps != 2**b.Gaps {
		t.Errorf("the merge lost b's subscriptions: %+v", m.Targets[1].Subscriptions)
	}
}
