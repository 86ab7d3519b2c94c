package report

import (
	"fmt"
	"io"
	"strings"
	"testing"

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
