package report

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// requestsTable shows the numbers per request of the mix (seed 001 mixes getBalance and
// getBlocks; one slow method hides in the totals). Left out for a mix of one: the totals are
// that request.
func requestsTable(tot *engine.Summary) *textfmt.Table {
	// A run of JSON-RPC calls adds its calls answered and failed: a batch request is many
	// calls, and rpcerr counts calls too. The name gives way (cut) when the columns need the
	// room: the numbers never do.
	calls := tot.Calls.Sent > 0
	align, head := "lrrrrrrrrrr", []string{"name", "count", "share", "p50", "p90", "p99", "max", "2xx", "lim", "fail", "rpcerr"}
	if calls {
		align, head = align+"rr", append(head, "calls", "c.fail")
	}
	t := textfmt.NewTable(align, head...).GiveWay(0, false)
	t.Caption = "Requests (latency in ms, from intended send)"
	if len(tot.ByRequest) < 2 {
		return t
	}
	for _, name := range runtext.RequestsByCount(tot.ByRequest) {
		r := tot.ByRequest[name]
		t.Add(name, textfmt.Int(r.Completed), textfmt.Pct(r.Completed, tot.Completed),
			textfmt.Ms(r.Latency.P50), textfmt.Ms(r.Latency.P90), textfmt.Ms(r.Latency.P99), textfmt.Ms(r.Latency.Max),
			textfmt.Int(textfmt.Sum2xx(r.Status)), textfmt.Int(r.Limited), textfmt.Int(r.Failed),
			textfmt.Int(textfmt.SumCounts(r.RPCErrors)), textfmt.Int(r.Calls.Completed()), textfmt.Int(r.Calls.Failed))
	}
	return t
}
