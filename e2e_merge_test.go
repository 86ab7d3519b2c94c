package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// runShards runs a profile as shards 1/2 and 2/2 side by side, as two machines would, and
// returns their runs, each with its snapshot file.
func runShards(t *testing.T, profile string) []cliRun {
	t.Helper()
	var wg sync.WaitGroup
	runs := make([]cliRun, 2)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = runCLI(t, nil, profile, "--shard", []string{"1/2", "2/2"}[i])
		}()
	}
	wg.Wait()
	return runs
}

// TestE2EShardsMerge: two shards of one profile run side by side through the CLI and merge
// into a snapshot whose counts equal the node's own.
func TestE2EShardsMerge(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{Rate: 300, Burst: 10, NoDelay: true})
	runs := runShards(t, writeProfile(t, url, 32, getBalance+stage("200/s", "1s")+stage("600/s", "1s")))
	for i, r := range runs {
		mustRun(t, r, exitOK)
		if r.snap.Shard != []string{"1/2", "2/2"}[i] || r.snap.Totals.Completed != 400 {
			t.Errorf("shard %d: %q completed %d, want 400", i+1, r.snap.Shard, r.snap.Totals.Completed)
		}
	}
	out := filepath.Join(t.TempDir(), "merged.json")
	if r := runVerb(t, "merge", "-o", out, runs[0].out, runs[1].out); r.code != exitOK {
		t.Fatalf("merge exit %d: %s", r.code, r.stderr)
	}
	m := loadRun(t, out)
	st := node.Stats()
	if m.Totals.Status["200"] != st.Status["200"] || m.Totals.Status["429"] != st.Status["429"] || m.Totals.Completed != 800 {
		t.Errorf("merged %v (completed %d), node %v", m.Totals.Status, m.Totals.Completed, st.Status)
	}
}

// TestE2EMergeJudgesAgainAndRefusesTwice: two shards at half the rate each fail "rps > 150";
// their merge passes it, judged again on the merged numbers and kept in the merged snapshot
// (before, the merged snapshot had no thresholds at all). One shard given twice is refused
// (exit 2, nothing written), unless --force.
func TestE2EMergeJudgesAgainAndRefusesTwice(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	p := writeProfile(t, url, 32, getBalance+stage("200/s", "1s")+"[thresholds]\nrps = \"> 150\"\np99 = \"< 1s\"\n")
	runs := runShards(t, p)
	for i, r := range runs {
		if r.code != exitThresholds || r.snap == nil || len(r.snap.Thresholds) != 2 || r.snap.Thresholds[0].Pass {
			t.Fatalf("shard %d: exit %d, want %d with rps > 150 failed at half the rate\n%s", i+1, r.code, exitThresholds, r.stdout)
		}
	}
	a, b := runs[0].out, runs[1].out

	dir := t.TempDir()
	merged := filepath.Join(dir, "merged.json")
	r := runVerb(t, "merge", "-o", merged, a, b)
	if r.code != exitOK || !strings.Contains(r.stdout, "Thresholds ✓ all 2 hold") {
		t.Fatalf("merge: exit %d, want %d with the thresholds holding\n%s%s", r.code, exitOK, r.stdout, r.stderr)
	}
	m := loadRun(t, merged)
	if len(m.Thresholds) != 2 || !m.Thresholds[0].Pass || m.Thresholds[0].Measured != m.Totals.RPS {
		t.Errorf("merged thresholds %+v, want rps judged on the merged %.1f/s", m.Thresholds, m.Totals.RPS)
	}

	twice := filepath.Join(dir, "twice.json")
	r = runVerb(t, "merge", "-o", twice, a, a)
	if r.code != exitUsage || !strings.Contains(r.stderr, "same run") || !strings.Contains(r.stderr, "--force") {
		t.Errorf("one run twice: exit %d, want %d saying it is the same run: %s", r.code, exitUsage, r.stderr)
	}
	if _, err := os.Stat(twice); err == nil {
		t.Error("a refused merge wrote its output")
	}
	if r := runVerb(t, "merge", "--force", "-o", twice, a, a); r.code != exitOK {
		t.Errorf("--force: exit %d: %s", r.code, r.stderr)
	}
}
