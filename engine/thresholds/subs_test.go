package thresholds

import (
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestEvaluateSubscriptions: the subscriptions' metrics are judged on the snapshot's
// subscriptions, all tables together, and say why when the run cannot be judged on them.
func TestEvaluateSubscriptions(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	lag := engine.Percentiles{P99: 900}
	heads := engine.SubStats{Name: "newHeads", Subscribers: 200, Subscribed: 199, Subscribes: 205, Notifications: 3000,
		Rate: 200, Gaps: n(3), Duplicates: n(0), Reorgs: n(0), GapSubscribers: n(1),
		Disconnects: map[string]int64{"close 1006": 5}, Spread: engine.Percentiles{P99: 150}, Subscribe: engine.Percentiles{P99: 40}, Lag: &lag}
	slots := engine.SubStats{Name: "slotSubscribe", Subscribers: 10, Subscribed: 10, Subscribes: 10, Notifications: 500, Rate: 25,
		Refused: map[string]int64{"-32005": 2}, Spread: engine.Percentiles{P99: 250}}
	both := &engine.Snapshot{Subscriptions: []engine.SubStats{heads, slots}}
	onlySlots := &engine.Snapshot{Subscriptions: []engine.SubStats{slots}}
	none := &engine.Snapshot{}
	tests := []struct {
		metric, cond string
		snap         *engine.Snapshot
		stage        int
		pass         bool
		measured     float64
		note         string
	}{
		{"sub_gaps", "== 0", both, 0, false, 3, ""},                                                   // three heads skipped: fails
		{"sub_gaps", "< 1%", both, 0, true, 0.086, ""},                                                // 3 of 3,500 notifications
		{"sub_duplicates", "== 0", both, 0, true, 0, ""},                                              // none repeated
		{"sub_spread_p99", "< 200ms", both, 0, false, 250, ""},                                        // the worst table's p99
		{"sub_spread_p99", "< 300ms", onlySlots, 0, true, 250, ""},                                    // one table
		{"sub_lag_p99", "< 1s", both, 0, true, 900, ""},                                               // heads' lag
		{"sub_subscribe_p99", "< 50ms", both, 0, true, 40, ""},                                        // time to subscribe
		{"sub_disconnects", "< 5%", both, 0, true, 2.326, ""},                                         // 5 of 215 made
		{"sub_refused", "== 0", both, 0, false, 2, ""},                                                // two refusals
		{"sub_subscribed", ">= 99%", both, 0, true, 99.524, ""},                                       // 209 of 210 held
		{"sub_rate", "> 200", both, 0, true, 225, ""},                                                 // notifications per second
		{"sub_gaps", "== 0", onlySlots, 0, false, 0, "the run held no newHeads subscription"},         // no heads to count
		{"sub_spread_p99", "< 200ms", none, 0, false, 0, "the run held no subscriptions"},             // nothing at all
		{"sub_gaps", "== 0", both, 2, false, 0, "sub_gaps is judged on the whole run, not per stage"}, // per stage
	}
	for _, tt := range tests {
		th, err := Parse(tt.metric, tt.cond)
		if err != nil {
			t.Fatalf("%s = %q: %v", tt.metric, tt.cond, err)
		}
		th.Stage = tt.stage
		r := Evaluate([]Threshold{th}, tt.snap)[0]
		if r.Pass != tt.pass || r.Measured != tt.measured || r.Note != tt.note {
			t.Errorf("%s %s: pass %v measured %v note %q, want %v %v %q", tt.metric, tt.cond, r.Pass, r.Measured, r.Note, tt.pass, tt.measured, tt.note)
		}
	}
	if !IsSubMetric("sub_gaps") || IsSubMetric("p99") || !NeedsHeads("sub_gaps") || NeedsHeads("sub_spread_p99") {
		t.Error("IsSubMetric or NeedsHeads is wrong")
	}
}

// TestEvaluateSubscriptionsPerTarget: in a run with several targets a subscriptions'
// condition is judged on each target's own subscriptions (a gap on b fails b alone), and one
// of [thresholds.target.NAME] on that target's.
func TestEvaluateSubscriptionsPerTarget(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	heads := func(gaps int64) []engine.SubStats {
		return []engine.SubStats{{Name: "newHeads", Subscribers: 2, Subscribed: 2, Subscribes: 2, Notifications: 100,
			Gaps: n(gaps), Duplicates: n(0), Reorgs: n(0), GapSubscribers: n(min(gaps, 1))}}
	}
	s := &engine.Snapshot{Subscriptions: heads(0), Targets: []engine.TargetRun{
		{Name: "a", Subscriptions: heads(0)}, {Name: "b", Subscriptions: heads(4)}}}
	th, err := Parse("sub_gaps", "== 0")
	if err != nil {
		t.Fatal(err)
	}
	rs := Evaluate([]Threshold{th}, s)
	if len(rs) != 2 || !rs[0].Pass || rs[0].Target != "a" || rs[1].Pass || rs[1].Target != "b" || rs[1].Measured != 4 {
		t.Errorf("sub_gaps on each target: %+v", rs)
	}
	th.Target = "b"
	if r := Evaluate([]Threshold{th}, s)[0]; r.Pass || r.Measured != 4 {
		t.Errorf("[thresholds.target.b] sub_gaps: %+v", r)
	}
}
