package tui

import (
	"sort"

	"github.com/rpcstress/rpcstress/engine"
)

// writeRequests shows the numbers per request of the mix (seed 001 mixes getBalance and
// getBlocks; one slow method hides in the totals). Skipped for a mix of one.
func writeRequests(ew *errWriter, tot *engine.Summary) {
	if len(tot.ByRequest) < 2 {
		return
	}
	ew.line("")
	ew.line("Requests (latency in ms, from intended send)")
	// A run of JSON-RPC calls adds its calls answered and failed: a batch request is many
	// calls, and rpcerr counts calls too. The name gives way (cut) when the columns need the
	// room: the numbers never do.
	calls := tot.Calls.Sent > 0
	t := newTable("lrrrrrrrrrrrr").giveWay(0, false)
	head := []string{"name", "count", "share", "p50", "p90", "p99", "max", "2xx", "lim", "fail", "rpcerr"}
	if calls {
		head = append(head, "calls", "c.fail")
	}
	t.add(head...)
	for _, name := range requestsByCount(tot.ByRequest) {
		r := tot.ByRequest[name]
		row := []string{name, formatInt(r.Completed), formatPct(r.Completed, tot.Completed),
			formatMs(r.Latency.P50), formatMs(r.Latency.P90), formatMs(r.Latency.P99), formatMs(r.Latency.Max),
			formatInt(sum2xx(r.Status)), formatInt(r.Limited), formatInt(r.Failed),
			formatInt(sumCounts(r.RPCErrors))}
		if calls {
			row = append(row, formatInt(r.Calls.Completed()), formatInt(r.Calls.Failed))
		}
		t.add(row...)
	}
	t.write(ew, "  ", ew.width)
}

// requestsByCount orders request names by completed count, most first, then by name.
func requestsByCount(m map[string]engine.Summary) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := m[names[i]].Completed, m[names[j]].Completed
		if a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	return names
}
