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
