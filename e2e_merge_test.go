package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestE2EMergeJudgesAgainAndRefusesTwice: two shards at half the rate each fail "rps > 150";
// their merge passes it, judged again on the merged numbers and kept in the merged snapshot
// (before, the merged snapshot had no thresholds at all). One shard given twice is refused
// (exit 2, nothing written), unless --force.
func TestE2EMergeJudgesAgainAndRefusesTwice(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	p := writeProfile(t, url, 32, getBalance+"[[stage]]\nrate = \"200/s\"\nduration = \"1s\"\n"+
		"[thresholds]\nrps = \"> 150\"\np99 = \"< 1s\"\n")
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")}
	var wg sync.WaitGroup
	runs := make([]cliRun, 2)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = runCLI(t, nil, p, "--shard", []string{"1/2", "2/2"}[i])
		}()
	}
	wg.Wait()
	for i, r := range runs {
		if r.code != exitThresholds || r.snap == nil || len(r.snap.Thresholds) != 2 || r.snap.Thresholds[0].Pass {
			t.Fatalf("shard %d: exit %d, want %d with rps > 150 failed at half the rate\n%s", i+1, r.code, exitThresholds, r.stdout)
		}
		if err := engine.WriteSnapshot(files[i], r.snap); err != nil {
			t.Fatal(err)
		}
	}

	merged := filepath.Join(dir, "merged.json")
	code, out, errOut := runVerb(t, "merge", "-o", merged, files[0], files[1])
	if code != exitOK || !strings.Contains(out, "Thresholds ✓ all 2 hold") {
		t.Fatalf("merge: exit %d, want %d with the thresholds holding\n%s%s", code, exitOK, out, errOut)
	}
	m, err := readSnapshot(t, merged)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Thresholds) != 2 || !m.Thresholds[0].Pass || m.Thresholds[0].Measured != m.Totals.RPS {
		t.Errorf("merged thresholds %+v, want rps judged on the merged %.1f/s", m.Thresholds, m.Totals.RPS)
	}

	twice := filepath.Join(dir, "twice.json")
	code, _, errOut = runVerb(t, "merge", "-o", twice, files[0], files[0])
	if code != exitUsage || !strings.Contains(errOut, "same run") || !strings.Contains(errOut, "--force") {
		t.Errorf("one run twice: exit %d, want %d saying it is the same run: %s", code, exitUsage, errOut)
	}
	if _, err := os.Stat(twice); err == nil {
		t.Error("a refused merge wrote its output")
	}
	if code, _, errOut := runVerb(t, "merge", "--force", "-o", twice, files[0], files[0]); code != exitOK {
		t.Errorf("--force: exit %d: %s", code, errOut)
	}
}
