package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// targetsShard is a shard of a run with two targets, "fast" (run a) and "limited" (run b), as a
// run with several targets writes it: the first target's sections at the top level too.
func targetsShard(a, b *engine.Snapshot, host string, res *answers.Result) *engine.Snapshot {
	s := *a
	s.Host, s.Shard = host, host
	s.Targets = []engine.TargetRun{engine.TargetRunOf("fast", a), engine.TargetRunOf("limited", b)}
	s.Answers = res
	return &s
}

// answersOf is a comparison of the two targets with n mismatches of eth_x, each kept as an
// example labelled with tag, keeping at most keep.
func answersOf(n int, keep int, tag string) *answers.Result {
	c := answers.Counts{Compared: int64(n) + 10, Match: 10, Mismatch: int64(n)}
	r := &answers.Result{Targets: []string{"fast", "limited"}, Totals: c, Keep: keep,
		ByRequest: map[string]answers.Counts{"eth_x": c}, Pairs: []answers.PairCounts{{A: "fast", B: "limited", Counts: c}}}
	for range min(n, keep) {
		r.Examples = append(r.Examples, answers.Example{Request: "eth_x", Kind: answers.Mismatch, A: "fast", B: "limited", Sent: tag})
	}
	return r
}

// TestMergeTargetsSumsEachTarget: shards that ran two targets merge target by target: each
// target's counts and histograms are the sum of that target's in every shard (never the other
// target's), the top level is the first target's, the answers' counts add up and their examples
// are kept up to Keep, and the merged snapshot is valid against the schema.
func TestMergeTargetsSumsEachTarget(t *testing.T) {
	_, fastURL := startNode(t, mocknode.Config{})
	_, limitedURL := startNode(t, mocknode.Config{Rate: 50, Burst: 1, NoDelay: true})
	stages := []engine.Stage{{Rate: 200, Duration: 500 * time.Millisecond}}
	fast, limited := run(t, balanceConfig(fastURL, stages...)), run(t, balanceConfig(limitedURL, stages...))
	if limited.Totals.Status["429"] == 0 {
		t.Fatalf("the limited node answered no 429 (%v): the targets would not differ", limited.Totals.Status)
	}
	shards := []*engine.Snapshot{targetsShard(fast, limited, "h1", answersOf(2, 3, "h1")),
		targetsShard(fast, limited, "h2", answersOf(4, 3, "h2"))}
	m, err := engine.Merge(shards, []string{"a.json", "b.json"}, false)
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, m)
	if got := m.TargetNames(); strings.Join(got, ",") != "fast,limited" {
		t.Fatalf("merged targets %v, want fast, limited", got)
	}
	for i, one := range []*engine.Snapshot{fast, limited} {
		tr := &m.Targets[i]
		if tr.Totals.Completed != 2*one.Totals.Completed || tr.Totals.Status["429"] != 2*one.Totals.Status["429"] {
			t.Errorf("%s: merged completed %d (429: %d), want twice %d (429: %d)", tr.Name, tr.Totals.Completed,
				tr.Totals.Status["429"], one.Totals.Completed, one.Totals.Status["429"])
		}
		if err := tr.Totals.CheckInvariant(); err != nil {
			t.Errorf("%s: %v", tr.Name, err)
		}
		h, err := engine.DecodeHistogram(tr.Histograms.Total)
		if err != nil || h.TotalCount() != tr.Totals.Completed {
			t.Errorf("%s: merged histogram %v, count %d, want %d", tr.Name, err, h.TotalCount(), tr.Totals.Completed)
		}
		if tr.Target != one.Target {
			t.Errorf("%s: target %q, want %q", tr.Name, tr.Target, one.Target)
		}
	}
	if m.Totals.Completed != m.Targets[0].Totals.Completed || m.Target != fast.Target {
		t.Errorf("top level: %d completed against %s, want the first target's %d against %s",
			m.Totals.Completed, m.Target, m.Targets[0].Totals.Completed, fast.Target)
	}
	a := m.Answers
	if a == nil {
		t.Fatal("merged run has no answers")
	}
	if a.Totals.Mismatch != 6 || a.ByRequest["eth_x"].Compared != 26 || len(a.Pairs) != 1 || a.Pairs[0].Counts.Match != 20 {
		t.Errorf("answers summed: totals %+v, eth_x %+v, pairs %+v", a.Totals, a.ByRequest["eth_x"], a.Pairs)
	}
	// Keep 3: both of h1's examples, then the first of h2's.
	var tags []string
	for _, e := range a.Examples {
		tags = append(tags, e.Sent)
	}
	if strings.Join(tags, ",") != "h1,h1,h2" {
		t.Errorf("examples kept %v, want h1,h1,h2 (Keep 3 per request name)", tags)
	}
}

// TestMergeTargetsRefused: shards of different shapes are no shards of one run, and the
// message names both files and what each ran; --force does not change that.
func TestMergeTargetsRefused(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	one := run(t, balanceConfig(url, engine.Stage{Rate: 100, Duration: 200 * time.Millisecond}))
	two := targetsShard(one, one, "h1", nil)
	renamed := targetsShard(one, one, "h2", nil)
	renamed.Targets[1].Name = "erigon"
	for _, tc := range []struct {
		name  string
		snaps []*engine.Snapshot
		want  string
	}{
		// a run of several targets with a single-target run
		{"targets then single", []*engine.Snapshot{two, one}, "a.json ran 2 targets (fast, limited) and b.json a single target: they are not shards of one run"},
		// the other way round
		{"single then targets", []*engine.Snapshot{one, two}, "a.json ran a single target and b.json 2 targets (fast, limited)"},
		// the same number of targets, other names
		{"other names", []*engine.Snapshot{two, renamed}, "a.json and b.json ran different targets (fast, limited vs fast, erigon)"},
	} {
		for _, force := range []bool{false, true} {
			_, err := engine.Merge(tc.snaps, []string{"a.json", "b.json"}, force)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s (force %v): error %v, want %q", tc.name, force, err, tc.want)
			}
		}
	}
}
