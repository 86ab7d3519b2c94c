package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/thresholds"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/schema"
)

// runSideBySide runs the profile at p against the targets a (urls[0]) and b (urls[1]) side by
// side as shard i of 2, judges it by conds (plain [thresholds], judged on each target) and
// saves its snapshot into dir, as a run of several targets writes it.
func runSideBySide(t *testing.T, p *profiles.Profile, urls []string, i int, conds []thresholds.Threshold, dir string) string {
	t.Helper()
	cfg := *p.Config
	cfg.Targets = []engine.Target{{Name: "a", URL: urls[0], DisplayURL: urls[0]}, {Name: "b", URL: urls[1], DisplayURL: urls[1]}}
	cfg.URL, cfg.DisplayURL = urls[0], urls[0]
	cfg.Shard, cfg.ShardCount = i, 2
	r, err := engine.NewRunner(&cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	profile, err := json.Marshal(p.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	snap, err := r.Run(t.Context(), engine.SnapshotMeta{Host: "h" + string(rune('0'+i)), Profile: profile})
	if err != nil {
		t.Fatal(err)
	}
	snap.Thresholds = thresholds.Evaluate(conds, snap)
	path := filepath.Join(dir, "side"+string(rune('0'+i))+".json")
	if err := engine.WriteSnapshot(path, snap); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestE2ESideBySideSaved: two shards of a run against two mock nodes side by side, b behind a
// limiter, read back by every verb: the report shows both targets per stage and each target's
// sections; its json, csv and html exports are written (the json valid against its schema);
// compare sets a run's targets against each other, and two runs target by target; merge sums
// each target's shards to the nodes' own counts, judges "limited == 0" again on each target
// (a passes, b fails: exit 1), and refuses a single-target run beside them (exit 2).
func TestE2ESideBySideSaved(t *testing.T) {
	t.Parallel()
	nodeA, urlA := startNode(t, mocknode.Config{})
	nodeB, urlB := startNode(t, mocknode.Config{Rate: 60, Burst: 1, NoDelay: true})
	prof := writeProfile(t, urlA, 16, getBalance+stage("200/s", "1s"))
	p, err := profiles.Load(prof, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	cond, err := thresholds.Parse("limited", "== 0")
	if err != nil {
		t.Fatal(err)
	}
	cond.Where = prof + ":9"
	dir := t.TempDir()
	shards := []string{runSideBySide(t, p, []string{urlA, urlB}, 1, []thresholds.Threshold{cond}, dir),
		runSideBySide(t, p, []string{urlA, urlB}, 2, []thresholds.Threshold{cond}, dir)}

	rep := verbExits(t, exitOK, "report", shards[0])
	checkHas(t, "the report", rep.stdout, "Targets side by side", "━━ Target A: a  "+urlA,
		"━━ Target B: b  "+urlB, "✓ pass  a: limited", "✗ FAIL  b: limited")
	for _, format := range []string{"json", "csv", "html"} {
		out := filepath.Join(dir, "report."+format)
		verbExits(t, exitOK, "report", shards[0], "--format", format, "-o", out)
		data, err := os.ReadFile(out)
		if want := map[string]string{"json": `"target": "` + urlB, "csv": "\nb,", "html": "Target B: b · " + urlB}[format]; err != nil || !strings.Contains(string(data), want) {
			t.Errorf("report --format %s: %v, target b (%q) missing", format, err, want)
		}
		if format == "json" {
			checkSchema(t, schema.Summary, data, out)
		}
	}
	one := verbExits(t, exitOK, "compare", shards[0])
	checkHas(t, "compare of one run", one.stdout, "rpcstress compare: the 2 targets of", "  B  b  "+urlB, "Totals  (A ran")
	two := verbExits(t, exitOK, "compare", shards[0], shards[1])
	checkHas(t, "compare of two runs", two.stdout, "━━ Target a: A vs B", "━━ Target b: A vs B")

	merged := filepath.Join(dir, "merged.json")
	m := verbExits(t, exitThresholds, "merge", "-o", merged, shards[0], shards[1])
	checkHas(t, "merge", m.stdout, "merged 2 runs: requests completed a ", ", b ", "✓ pass  a: limited", "✗ FAIL  b: limited")
	s := loadRun(t, merged)
	for i, node := range []*mocknode.Node{nodeA, nodeB} {
		tr, st := s.Targets[i], node.Stats()
		if tr.Totals.Completed != st.Requests || tr.Totals.Status["429"] != st.Status["429"] {
			t.Errorf("merged %s: completed %d (429: %d), its node answered %d (429: %d)", tr.Name,
				tr.Totals.Completed, tr.Totals.Status["429"], st.Requests, st.Status["429"])
		}
	}
	if s.Targets[1].Totals.Status["429"] == 0 {
		t.Error("b's limiter answered no 429: the targets do not differ")
	}
	single := runCLI(t, nil, prof, "--duration", "200ms")
	mustRun(t, single, exitOK)
	refused := verbExits(t, exitUsage, "merge", "-o", filepath.Join(dir, "mixed.json"), shards[0], single.out)
	checkHas(t, "merge of mixed runs", refused.stderr, "ran 2 targets (a, b) and", "a single target: they are not shards of one run")
	if _, err := os.Stat(filepath.Join(dir, "mixed.json")); !os.IsNotExist(err) {
		t.Errorf("a refused merge wrote its file: %v", err)
	}
}

// verbExits runs a verb of rpcstress (runVerb) and ends the test unless it exits with code.
func verbExits(t *testing.T, code int, args ...string) cliRun {
	t.Helper()
	r := runVerb(t, args...)
	if r.code != code {
		t.Fatalf("%v: exit %d, want %d\nstderr: %s\nstdout: %s", args, r.code, code, r.stderr, r.stdout)
	}
	return r
}

// checkHas fails when out (what names it) lacks any of wants.
func checkHas(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}
