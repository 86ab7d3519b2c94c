package report

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// TestCompareAcrossTransports: the same answers over HTTP (a limiter's 429s) and over
// WebSocket (the limiter's -32005 inside answers that all count as 200, as on any open
// WebSocket and at many providers over HTTP) compare the same: no row calls one run better or
// worse, though their 2xx and JSON-RPC error counts differ. Before, "2xx" called the
// WebSocket run better and "rpc errors" worse for the same limited answers.
func TestCompareAcrossTransports(t *testing.T) {
	http, ws := fixture.Snapshot(), fixture.Snapshot()
	for _, s := range []*engine.Snapshot{http, ws} {
		s.Stages = s.Stages[:1]
		s.Stages[0].Summary = s.Totals
	}
	set := func(s *engine.Summary, status map[string]int64, rpc map[string]int64) {
		s.Completed, s.OK, s.Limited, s.Failed = 600, 211, 389, 0
		s.Status, s.RPCErrors, s.Errors = status, rpc, nil
	}
	set(&http.Totals, map[string]int64{"200": 211, "429": 389}, nil)
	set(&http.Stages[0].Summary, map[string]int64{"200": 211, "429": 389}, nil)
	set(&ws.Totals, map[string]int64{"200": 600}, map[string]int64{"-32005": 389})
	set(&ws.Stages[0].Summary, map[string]int64{"200": 600}, map[string]int64{"-32005": 389})
	out := compareText(t, http, ws)
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(l, " better") || strings.HasSuffix(l, " worse") {
			t.Errorf("the same answers over two transports judged: %q", l)
		}
	}
	checkContains(t, "compare", out, "ok            211    211     =", "rpc errors      0    389  +389\n")
}

// TestCompareRPCErrorShareOfCalls: when runs lasted differently, the JSON-RPC errors' share is
// of the calls answered, as they are counted. A WebSocket run of 300 calls and 300 batches of
// three, limited two times in three, has 786 errors among 1200 calls: 65.5 %, where a share of
// its 600 requests said 131 %.
func TestCompareRPCErrorShareOfCalls(t *testing.T) {
	http, ws := fixture.Snapshot(), fixture.Snapshot()
	for _, s := range []*engine.Snapshot{http, ws} {
		s.Stages = s.Stages[:1]
		s.Totals.Completed, s.Totals.OK, s.Totals.Limited, s.Totals.Failed, s.Totals.Errors = 600, 208, 392, 0, nil
		s.Totals.Calls = engine.CallStats{Sent: 1200, OK: 414, Limited: 786}
		s.Stages[0].Summary = s.Totals
	}
	http.Totals.DurationS, ws.Totals.DurationS = 2.1, 2
	http.Totals.RPCErrors, ws.Totals.RPCErrors = nil, map[string]int64{"-32005": 786}
	out := compareText(t, http, ws)
	checkContains(t, "compare", out, "the runs lasted differently")
	if f := strings.Fields(rowOf(out, "rpc errors %")); len(f) < 5 || f[3] != "0%" || f[4] != "65.5%" {
		t.Errorf("rpc errors %% row %q; want B 65.5%% (786 of 1200 calls)\n%s", f, out)
	}
}

// rowOf is the first line of out that starts (after its indent) with name.
func rowOf(out, name string) string {
	for l := range strings.Lines(out) {
		if strings.HasPrefix(strings.TrimSpace(l), name+" ") {
			return l
		}
	}
	return ""
}
