package thresholds

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
)

// twoTargets is a run that sent to "geth" (p99 45 ms, all ok) and "erigon" (p99 60 ms, 4 %
// limited), with 1000 requests' answers compared: 990 matched, 6 mismatched, 4 error against
// result.
func twoTargets() *engine.Snapshot {
	geth := engine.Summary{Completed: 1000, OK: 1000, RPS: 980, Latency: engine.Percentiles{P99: 45}}
	erigon := engine.Summary{Completed: 1000, OK: 960, Limited: 40, RPS: 970, Latency: engine.Percentiles{P99: 60}}
	stage := func(s engine.Summary) []engine.StageStats { return []engine.StageStats{{Summary: s}} }
	return &engine.Snapshot{Totals: geth, Stages: stage(geth),
		Targets: []engine.TargetRun{{Name: "geth", Totals: geth, Stages: stage(geth)}, {Name: "erigon", Totals: erigon, Stages: stage(erigon)}},
		Answers: &answers.Result{Targets: []string{"geth", "erigon"},
			Totals: answers.Counts{Compared: 1000, Match: 990, Mismatch: 6, ErrorVsResult: 4}}}
}

// on is a parsed threshold, on a target ("" for plain [thresholds]) and a stage.
func on(t *testing.T, target, metric, cond string, stage int) Threshold {
	t.Helper()
	th, err := Parse(metric, cond)
	if err != nil {
		t.Fatal(err)
	}
	th.Target, th.Stage, th.Where = target, stage, "p.toml:9"
	return th
}

// verdict is how a result reads in the tests: "erigon p99 false 60 -10 targeted=false".
func verdict(r engine.ThresholdResult) string {
	s := fmt.Sprintf("%s %s %v %v %v", r.Target, r.Metric, r.Pass, r.Measured, r.Margin)
	if r.Targeted {
		s += " targeted"
	}
	if r.Note != "" {
		s += " (" + r.Note + ")"
	}
	return strings.TrimSpace(s)
}

// TestEvaluateTargets: a plain condition is judged on every target, each result named; one of
// [thresholds.target.NAME] on that target only; a target the run did not have fails with a
// note naming the run's targets; a run of one target keeps its results unnamed.
func TestEvaluateTargets(t *testing.T) {
	run := twoTargets()
	tests := []struct {
		th   Threshold
		want []string
	}{
		// plain: each target judged, erigon fails
		{on(t, "", "p99", "< 50ms", 0), []string{"geth p99 true 45 5", "erigon p99 false 60 -10"}},
		// plain, a stage: each target's stage
		{on(t, "", "limited", "== 0", 1), []string{"geth limited true 0 0", "erigon limited false 40 -40"}},
		// one target's table: that target alone
		{on(t, "erigon", "p99", "< 100ms", 0), []string{"erigon p99 true 60 40 targeted"}},
		// one target's stage
		{on(t, "geth", "rps", "> 990", 1), []string{"geth rps false 980 -10 targeted"}},
		// a target the run did not send to: a failure that says so, never a pass
		{on(t, "nethermind", "p99", "< 50ms", 0), []string{"nethermind p99 false 0 0 targeted (the run had no target nethermind (its targets: geth, erigon))"}},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range Evaluate([]Threshold{tt.th}, run) {
			got = append(got, verdict(r))
		}
		if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
			t.Errorf("%s %s:\n got %q\nwant %q", tt.th.Label(), tt.th.Condition, got, tt.want)
		}
	}
	single := &engine.Snapshot{Totals: run.Targets[1].Totals}
	if rs := Evaluate([]Threshold{on(t, "", "p99", "< 50ms", 0)}, single); len(rs) != 1 || rs[0].Target != "" || rs[0].Pass {
		t.Errorf("a single target: %+v, want one unnamed failure", rs)
	}
	if r := Evaluate([]Threshold{on(t, "geth", "p99", "< 50ms", 0)}, single)[0]; r.Pass || !strings.Contains(r.Note, "sent to a single target") {
		t.Errorf("a target's condition on a single-target run: %+v", r)
	}
}

// TestEvaluateAnswers: the answer metrics are judged once, on the run's comparison; a node
// that answers errors where another has results fails answers_mismatch; a run that compared
// nothing fails with a note.
func TestEvaluateAnswers(t *testing.T) {
	run := twoTargets()
	tests := []struct {
		th   Threshold
		want string
	}{
		{on(t, "", "answers_mismatch", "== 0", 0), " answers_mismatch false 10 -10"},             // 6 mismatched + 4 error vs result
		{on(t, "", "answers_mismatch", "< 2%", 0), " answers_mismatch true 1 1"},                 // 10 of 1000: 1 %
		{on(t, "", "answers_error_vs_result", "== 0", 0), " answers_error_vs_result false 4 -4"}, // the errors alone
		{on(t, "", "answers_match", "> 99%", 0), " answers_match false 99 0"},                    // 99.0 % is not above 99 %
		{on(t, "", "answers_head_skew", "== 0", 0), " answers_head_skew true 0 0"},               // no head skew
		{on(t, "", "answers_incomplete", "< 1%", 0), " answers_incomplete true 0 1"},             // nothing missing
	}
	for _, tt := range tests {
		rs := Evaluate([]Threshold{tt.th}, run)
		if len(rs) != 1 || " "+verdict(rs[0]) != tt.want {
			t.Errorf("%s %s: got %v, want %q", tt.th.Label(), tt.th.Condition, rs, tt.want)
		}
	}
	off := twoTargets()
	off.Answers = nil
	if r := Evaluate([]Threshold{on(t, "", "answers_mismatch", "== 0", 0)}, off)[0]; r.Pass || !strings.Contains(r.Note, "compare_answers was off") {
		t.Errorf("no comparison: %+v, want a failure with a note", r)
	}
	none := twoTargets()
	none.Answers.Totals = answers.Counts{}
	if r := Evaluate([]Threshold{on(t, "", "answers_mismatch", "< 1%", 0)}, none)[0]; r.Pass || r.Note == "" {
		t.Errorf("nothing compared: %+v, want a failure with a note", r)
	}
}

// TestFromSnapshotsTargets: a merge rebuilds a plain condition judged on each target as one
// condition, and a target's own as that target's, so the merged run is judged as the shards were.
func TestFromSnapshotsTargets(t *testing.T) {
	shard := twoTargets()
	shard.Thresholds = Evaluate([]Threshold{on(t, "", "p99", "< 50ms", 0), on(t, "erigon", "p99", "< 100ms", 0),
		on(t, "", "answers_mismatch", "== 0", 0)}, shard)
	if len(shard.Thresholds) != 4 {
		t.Fatalf("a shard's verdict: %+v", shard.Thresholds)
	}
	ts, err := FromSnapshots([]*engine.Snapshot{shard, twoTargets()})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, th := range ts {
		labels = append(labels, th.Label())
	}
	if strings.Join(labels, ", ") != "p99, erigon: p99, answers_mismatch" {
		t.Errorf("rebuilt %q, want p99, erigon: p99, answers_mismatch", labels)
	}
	if n := len(Evaluate(ts, twoTargets())); n != 4 {
		t.Errorf("judged again: %d results, want 4 as before", n)
	}
}
