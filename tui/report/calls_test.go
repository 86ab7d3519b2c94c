package report

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// TestReportCalls: a run of JSON-RPC calls shows them beside the requests (totals line and
// per request columns) and lists the answers' faults by kind with what each means; a run
// without calls shows none of it.
func TestReportCalls(t *testing.T) {
	batch := engine.CallStats{Sent: 60, OK: 40, Failed: 20, Faults: map[string]int64{"missing": 15, "unknown id": 5}}
	s := &engine.Snapshot{Schema: engine.SnapshotSchema, Totals: engine.Summary{
		Scheduled: 40, Sent: 40, Completed: 40, OK: 20, Failed: 20, Status: map[string]int64{"200": 40},
		Calls: engine.CallStats{Sent: 80, OK: 60, Failed: 20, Faults: batch.Faults},
		ByRequest: map[string]engine.Summary{
			"getSlot x3": {Completed: 20, Failed: 20, Status: map[string]int64{"200": 20}, Calls: batch},
			"getBalance": {Completed: 20, OK: 20, Status: map[string]int64{"200": 20}, Calls: engine.CallStats{Sent: 20, OK: 20}},
		},
	}}
	out := reportText(t, s)
	checkContains(t, "the report", out,
		"calls        sent 80  ok 60 (75.0%)  limited 0 (0.0%)  failed 20 (25.0%)",
		"JSON-RPC answer faults",
		"missing        15  a call got no answer",
		"unknown id      5  an answer item whose id no call has")
	var slot []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "getSlot" {
			slot = f
		}
	}
	if len(slot) < 3 || slot[len(slot)-2] != "60" || slot[len(slot)-1] != "20" {
		t.Errorf("getSlot x3's row should end with its 60 calls answered and 20 failed: %q", slot)
	}
	fixture.CheckWidth(t, out, textfmt.DefaultWidth)

	s.Totals.Calls, s.Totals.ByRequest = engine.CallStats{}, nil
	if out := reportText(t, s); strings.Contains(out, "calls") || strings.Contains(out, "faults") {
		t.Errorf("a run without JSON-RPC calls mentions them:\n%s", out)
	}
}

// TestWriteCSVCalls: a run of JSON-RPC calls has calls_ok, calls_limited and calls_failed
// after failed, per second, adding up to the run's; a run without calls has none (the golden
// file above).
func TestWriteCSVCalls(t *testing.T) {
	s := fixture.SnapshotWithTimeline()
	s.Totals.Calls = engine.CallStats{Sent: 9, OK: 5, Limited: 1, Failed: 3}
	s.Timeline[0].CallsOK, s.Timeline[0].CallsFailed = 5, 1
	s.Timeline[1].CallsLimited, s.Timeline[1].CallsFailed = 1, 2
	_, rows := csvRows(t, s)
	if got := strings.Join(rows[0][4:10], ","); got != "ok,limited,failed,calls_ok,calls_limited,calls_failed" {
		t.Fatalf("header %v", rows[0])
	}
	var ok, lim, failed int64
	for _, r := range rows[1:] {
		ok, lim, failed = ok+mustInt(t, r[7]), lim+mustInt(t, r[8]), failed+mustInt(t, r[9])
	}
	if ok != 5 || lim != 1 || failed != 3 {
		t.Errorf("calls per second add up to ok %d limited %d failed %d, want 5 1 3", ok, lim, failed)
	}
}
