package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// TestReportSubscriptions: the report has the subscriptions' counts, trouble and times, in 80
// columns; a run without subscriptions has no such section.
func TestReportSubscriptions(t *testing.T) {
	out := reportText(t, fixture.Subscribed(fixture.Snapshot()))
	checkContains(t, "the report", out, "Subscriptions (held at the end", "198/200", "11994",
		"Subscription times (ms)", "115", "930", "slotSubscribe refused -32005 ×2 rate limit exceeded",
		"newHeads dropped", "close 1006 ×6", "newHeads repeats 1, reorgs 0")
	fixture.CheckPlainAndNarrow(t, out)
	if plain := reportText(t, fixture.Snapshot()); strings.Contains(plain, "Subscription") {
		t.Error("a run without subscriptions reports some")
	}
}

// TestCSVSubscriptions: a column set per subscription, each second's figures beside its rps.
func TestCSVSubscriptions(t *testing.T) {
	s := fixture.Subscribed(fixture.SnapshotWithTimeline())
	out := written(t, func(w io.Writer) error { return WriteCSV(w, s) })
	lines := strings.Split(strings.TrimSpace(out), "\n")
	checkContains(t, "the header", lines[0], "sub_newHeads_subscribed,sub_newHeads_notifications,sub_newHeads_per_subscriber,sub_newHeads_spread_p50_ms,sub_newHeads_spread_p99_ms,sub_newHeads_lag_p50_ms,sub_newHeads_lag_p99_ms,sub_newHeads_gaps",
		"sub_slotSubscribe_refused")
	want := fmt.Sprintf("198,198,1,12.5,%g,450,900,0,0,0,0,0,10,25,2.5,1.2,3.4,,,0,0,0,0,0", 80+float64(s.Timeline[0].T))
	if !strings.HasSuffix(lines[1], want) {
		t.Errorf("first second %q does not end with %q", lines[1], want)
	}
}

// TestCompareSubscriptions: compare lines up each subscription of run A with the other runs'
// of the same name: a worse spread and more gaps read as worse.
func TestCompareSubscriptions(t *testing.T) {
	a := fixture.Subscribed(fixture.Snapshot())
	b := fixture.Subscribed(fixture.Snapshot())
	gaps := int64(30)
	b.Subscriptions[0].Spread.P99, b.Subscriptions[0].Gaps = 229.2, &gaps
	out := written(t, func(w io.Writer) error {
		return WriteCompare(w, []CompareRun{{File: "a.json", Snapshot: a}, {File: "b.json", Snapshot: b}}, 0)
	})
	checkContains(t, "compare", out, "Subscription newHeads", "Subscription slotSubscribe")
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "spread p99 ms") && strings.Contains(l, "229") && !strings.Contains(l, "worse") ||
			strings.HasPrefix(strings.TrimSpace(l), "gaps") && strings.Contains(l, "30") && !strings.Contains(l, "worse") {
			t.Errorf("%q should read worse", l)
		}
	}
	fixture.CheckPlainAndNarrow(t, out)
}

// TestReportSubscriptionsPerTarget: a run of several targets reports each target's
// subscriptions in that target's sections, its own numbers there, in the text report and the
// HTML page.
func TestReportSubscriptionsPerTarget(t *testing.T) {
	s := fixture.TargetsSnapshot()
	a := fixture.Subscribed(fixture.Snapshot()).Subscriptions
	b := slices.Clone(a)
	b[0].Subscribed, b[0].Notifications = 150, 8888
	s.Subscriptions, s.Targets[0].Subscriptions, s.Targets[1].Subscriptions = a, a, b
	out := reportText(t, s)
	geth, erigon, _ := strings.Cut(out, "Target B")
	checkContains(t, "target A's sections", geth, "Subscriptions (held at the end", "198/200", "11994")
	checkContains(t, "target B's sections", erigon, "Subscriptions (held at the end", "150/200", "8888")
	if strings.Contains(erigon, "198/200") {
		t.Error("target B's sections show target A's subscriptions")
	}
	fixture.CheckPlainAndNarrow(t, out)
	page := writeHTMLPage(t, s)
	if strings.Count(page, "Subscriptions (held at the end") != 2 || !strings.Contains(page, "8888") {
		t.Error("the HTML page does not show each target's subscriptions")
	}
}

// TestReportHoldStage: a stage of subscriptions alone, which sends nothing, says what it did
// (the subscribers held at its end and the notifications of its seconds), in the report's
// stages and in compare; a stage that never ran still says so.
func TestReportHoldStage(t *testing.T) {
	s := fixture.Subscribed(fixture.SnapshotWithTimeline())
	s.Stages[0].Spec.Rate, s.Stages[0].Summary = 0, engine.Summary{DurationS: 10}
	held := "held 208 subscribers, 2230 notifications"
	out := reportText(t, s)
	checkContains(t, "the stages", out, held)
	if strings.Contains(out, "did not run") {
		t.Errorf("the hold stage reads as not run:\n%s", out)
	}
	fixture.CheckPlainAndNarrow(t, out)
	cmp := written(t, func(w io.Writer) error {
		return WriteCompare(w, []CompareRun{{File: "a.json", Snapshot: s}, {File: "b.json", Snapshot: s}}, 0)
	})
	checkContains(t, "compare", cmp, "stage 1 "+held)
	s.Stages[0].Summary.DurationS = 0 // never reached: the run ended first
	if out := reportText(t, s); strings.Contains(out, "held 208") || !strings.Contains(out, "did not run") {
		t.Errorf("a stage that never ran:\n%s", out)
	}
}
