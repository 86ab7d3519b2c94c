package report

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// subColumns are the CSV's columns of a run that held subscriptions, after the node's: per
// subscription ("sub_" and its name) how many held one, the notifications received in the
// second and per subscriber, the spread and lag p50 and p99 (ms; empty when none was
// measured that second), gaps, repeats, drops, re-subscriptions and refusals. Beside the rps
// of the same row, they answer whether a spike of calls delays notifications.
func subColumns(s *engine.Snapshot) []string {
	var out []string
	for _, sub := range s.Subscriptions {
		p := "sub_" + columnName(sub.Name)
		out = append(out, p+"_subscribed", p+"_notifications", p+"_per_subscriber", p+"_spread_p50_ms",
			p+"_spread_p99_ms", p+"_lag_p50_ms", p+"_lag_p99_ms", p+"_gaps", p+"_duplicates",
			p+"_disconnects", p+"_resubscribes", p+"_refused")
	}
	return out
}

// subCells are row r's cells of subColumns, of n subscriptions (a target of a run with
// several that has none of its own gets empty cells).
func subCells(n int, r *engine.Row) []string {
	var out []string
	for i := range n {
		if i >= len(r.Subs) {
			out = append(out, make([]string, 12)...) // a second the book did not file: unknown
			continue
		}
		sr := &r.Subs[i]
		out = append(out, textfmt.Int(int64(sr.Subscribed)), textfmt.Int(sr.Notifications), csvFloat(sr.PerSubscriber),
			msCell(sr.SpreadP50), msCell(sr.SpreadP99), msCell(sr.LagP50), msCell(sr.LagP99),
			textfmt.Int(sr.Gaps), textfmt.Int(sr.Duplicates), textfmt.Int(sr.Disconnects), textfmt.Int(sr.Resubscribes),
			textfmt.Int(sr.Refused))
	}
	return out
}

// msCell is a time in ms, empty when 0 (nothing measured: 0 would read as instant).
func msCell(ms float64) string {
	if ms == 0 {
		return ""
	}
	return csvFloat(ms)
}
