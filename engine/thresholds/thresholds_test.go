package thresholds

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/errtest"
)

func TestParse(t *testing.T) {
	tests := []struct {
		metric, cond string
		op           string
		bound        float64
		unit         string
		err          string // a part of the error; "" for none
	}{
		{"p99", "< 50ms", "<", 50, UnitMs, ""},                                             // the common case
		{"p999", "<=1.5s", "<=", 1500, UnitMs, ""},                                         // no space, seconds
		{"mean", " < 250us ", "<", 0.25, UnitMs, ""},                                       // microseconds, spaces around
		{"limited", "< 1%", "<", 1, UnitPct, ""},                                           // a share
		{"failed", "== 0", "==", 0, UnitCount, ""},                                         // a count
		{"ok", ">= 99.5 %", ">=", 99.5, UnitPct, ""},                                       // a space before %
		{"rps", "> 950", ">", 950, UnitPerSecond, ""},                                      // per second
		{"rps", "> 57000/m", ">", 950, UnitPerSecond, ""},                                  // per minute
		{"dropped", "== 0", "==", 0, UnitCount, ""},                                        // nothing dropped
		{"p99", "50ms", "", 0, "", "has no comparison"},                                    // the operator forgotten
		{"p99", "= 50ms", "", 0, "", "equality is written =="},                             // one =
		{"p99", "< 50", "", 0, "", "has no unit"},                                          // the unit forgotten
		{"p99", "< fast", "", 0, "", "is not a duration"},                                  // nonsense
		{"limited", "< 1.5", "", 0, "", "neither a share nor a count"},                     // a fraction is not a count
		{"limited", "< 150%", "", 0, "", "out of range"},                                   // over 100%
		{"rps", "> 5%", "", 0, "", "not a share"},                                          // a share for a rate
		{"invalid", "< 0.1%", "<", 0.1, UnitPct, ""},                                       // invalid answers: a share
		{"invalid", "== 0", "==", 0, UnitCount, ""},                                        // … or a count
		{"cost_rate", "< 5000", "<", 5000, UnitPerSecond, ""},                              // cost units per second
		{"cost_rate", "< 300000/m", "<", 5000, UnitPerSecond, ""},                          // … written per minute
		{"cost_rate", "< 5%", "", 0, "", "cost units answered ok per second, not a share"}, // a share for the cost rate
		{"p99", "<", "", 0, "", "no bound"},                                                // an operator alone
		{"p98", "< 50ms", "", 0, "", "unknown metric"},                                     // not a metric
	}
	for _, tt := range tests {
		th, err := Parse(tt.metric, tt.cond)
		switch m := errtest.Mismatch(err, tt.err); {
		case m != "":
			t.Errorf("%s = %q: %s", tt.metric, tt.cond, m)
		case tt.err == "" && (th.Op != tt.op || th.Bound != tt.bound || th.Unit != tt.unit):
			t.Errorf("%s = %q: %s %v %s, want %s %v %s", tt.metric, tt.cond, th.Op, th.Bound, th.Unit, tt.op, tt.bound, tt.unit)
		}
	}
}

func TestEvaluate(t *testing.T) {
	run := &engine.Snapshot{
		Totals: engine.Summary{Scheduled: 1000, Completed: 1000, OK: 950, Limited: 40, Failed: 10, RPS: 980,
			Latency: engine.Percentiles{P50: 2, P99: 45, Max: 120},
			Expect:  &engine.ExpectStats{Invalid: 3, Calls: 3}, Cost: &engine.CostStats{AcceptedRate: 4900}},
		Stages: []engine.StageStats{
			{Summary: engine.Summary{Scheduled: 500, Completed: 500, OK: 500, RPS: 500, Latency: engine.Percentiles{P99: 3},
				Expect: &engine.ExpectStats{}}},
			{Summary: engine.Summary{Scheduled: 500, Completed: 500, OK: 450, Limited: 40, Failed: 10, RPS: 480, Latency: engine.Percentiles{P99: 60}}},
		},
	}
	mk := func(metric, cond string, stage int) Threshold {
		th, err := Parse(metric, cond)
		if err != nil {
			t.Fatal(err)
		}
		th.Stage = stage
		return th
	}
	tests := []struct {
		th       Threshold
		pass     bool
		measured float64
		margin   float64
		note     string
	}{
		{mk("p99", "< 50ms", 0), true, 45, 5, ""},                     // 5 ms to spare
		{mk("p99", "< 50ms", 2), false, 60, -10, ""},                  // stage 2 is 10 ms over
		{mk("limited", "< 1%", 0), false, 4, -3, ""},                  // 4% limited: 3 points over
		{mk("limited", "== 0", 1), true, 0, 0, ""},                    // none in stage 1
		{mk("ok", "> 99%", 1), true, 100, 1, ""},                      // all ok in stage 1
		{mk("rps", ">= 980", 0), true, 980, 0, ""},                    // exactly on the bound
		{mk("failed", "< 10", 0), false, 10, 0, ""},                   // exactly on a strict bound
		{mk("p99", "< 50ms", 3), false, 0, 0, "did not run"},          // no stage 3: fails, never passes
		{mk("max", "< 1s", 0), true, 120, 880, ""},                    // the slowest answer
		{mk("invalid", "< 0.1%", 0), false, 0.3, -0.2, ""},            // 3 of 1000 invalid: 0.2 points over
		{mk("invalid", "== 0", 1), true, 0, 0, ""},                    // none invalid in stage 1
		{mk("cost_rate", "< 5000", 0), true, 4900, 100, ""},           // 4900 units/s accepted: 100 to spare
		{mk("cost_rate", "> 1000", 1), false, 0, 0, "no cost"},        // stage 1 counted no cost: fails
		{mk("invalid", "== 0", 2), false, 0, 0, "checked no answers"}, // stage 2 had no rules: fails
	}
	for _, tt := range tests {
		r := Evaluate([]Threshold{tt.th}, run)[0]
		if r.Pass != tt.pass || r.Measured != tt.measured || r.Margin != tt.margin || !strings.Contains(r.Note, tt.note) {
			t.Errorf("%s %s: pass %v measured %v margin %v note %q; want %v %v %v %q",
				tt.th.Label(), tt.th.Condition, r.Pass, r.Measured, r.Margin, r.Note, tt.pass, tt.measured, tt.margin, tt.note)
		}
	}
	// Nothing completed: a latency bound cannot pass on zeros.
	empty := &engine.Snapshot{}
	if r := Evaluate([]Threshold{mk("p99", "< 50ms", 0)}, empty)[0]; r.Pass || r.Note == "" {
		t.Errorf("p99 of a run with no answers: %+v; want a failure with a note", r)
	}
	if n := Failed(Evaluate([]Threshold{mk("p99", "< 50ms", 0), mk("limited", "< 1%", 0)}, run)); n != 1 {
		t.Errorf("Failed = %d, want 1", n)
	}
}

// TestFromSnapshotsRejudges: the thresholds two shards were judged by are rebuilt from their
// verdicts, each condition once, and judged again on the merged numbers: each shard sent half
// the rate and failed "rps > 150", the merged run passes it.
func TestFromSnapshotsRejudges(t *testing.T) {
	mk := func(metric, cond string, stage int) Threshold {
		th, err := Parse(metric, cond)
		if err != nil {
			t.Fatal(err)
		}
		th.Stage, th.Where = stage, "p.toml:1"
		return th
	}
	shard := func(rps float64) *engine.Snapshot {
		s := &engine.Snapshot{Totals: engine.Summary{Completed: 100, RPS: rps, OK: 100}}
		s.Thresholds = Evaluate([]Threshold{mk("rps", "> 150", 0), mk("limited", "< 1%", 0)}, s)
		return s
	}
	a, b := shard(100), shard(100)
	b.Thresholds = append(b.Thresholds, Evaluate([]Threshold{mk("p99", "< 50ms", 2)}, b)...) // only b has it
	if Failed(a.Thresholds) != 1 {
		t.Fatalf("a shard's verdict: %+v", a.Thresholds)
	}
	ts, err := FromSnapshots([]*engine.Snapshot{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 3 || ts[0].Label() != "rps" || ts[2].Label() != "stage 2 p99" || ts[0].Where != "p.toml:1" {
		t.Fatalf("rebuilt %+v", ts)
	}
	merged := &engine.Snapshot{Totals: engine.Summary{Completed: 200, RPS: 200, OK: 200}}
	rs := Evaluate(ts, merged)
	if !rs[0].Pass || rs[0].Measured != 200 || !rs[1].Pass || rs[2].Pass {
		t.Errorf("merged verdict %+v: want rps 200 > 150 and limited to hold, stage 2 (absent) to fail", rs)
	}
	// A verdict whose condition no longer parses is an error, not a threshold silently dropped.
	a.Thresholds[0].Condition = "> fast"
	if _, err := FromSnapshots([]*engine.Snapshot{a}); err == nil || !strings.Contains(err.Error(), "p.toml:1") {
		t.Errorf("a bad condition: %v", err)
	}
}

// TestLatencyMetricsReadTheirFigure: each latency metric judges the figure its name says.
func TestLatencyMetricsReadTheirFigure(t *testing.T) {
	run := &engine.Snapshot{Totals: engine.Summary{Completed: 10,
		Latency: engine.Percentiles{Min: 1, P50: 2, P75: 3, P90: 4, P95: 5, P99: 6, P999: 7, Max: 8, Mean: 9}}}
	tests := []struct {
		metric string
		want   float64
	}{
		{"p50", 2},  // the median
		{"p75", 3},  // the third quartile
		{"p90", 4},  // one in ten slower
		{"p95", 5},  // one in twenty slower
		{"p99", 6},  // the usual SLO
		{"p999", 7}, // one in a thousand slower
		{"min", 1},  // the fastest answer
		{"max", 8},  // the slowest answer
		{"mean", 9}, // the mean
	}
	if len(tests) != len(engine.PercentileFigures()) {
		t.Errorf("%d rows for the figures %v", len(tests), engine.PercentileFigures())
	}
	for _, tt := range tests {
		th, err := Parse(tt.metric, "< 100ms")
		if err != nil {
			t.Fatal(err)
		}
		if r := Evaluate([]Threshold{th}, run)[0]; r.Measured != tt.want {
			t.Errorf("%s measured %v, want %v", tt.metric, r.Measured, tt.want)
		}
	}
}
