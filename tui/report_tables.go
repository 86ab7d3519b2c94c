package tui

import (
	"fmt"
	"sort"

	"github.com/rpcstress/rpcstress/engine"
)

// percentileRow is one line of the latency table.
func percentileRow(label string, p engine.Percentiles) []string {
	return []string{label, formatMs(p.Min), formatMs(p.P50), formatMs(p.P75), formatMs(p.P90),
		formatMs(p.P95), formatMs(p.P99), formatMs(p.P999), formatMs(p.Max), formatMs(p.Mean)}
}

func writeLatency(ew *errWriter, tot *engine.Summary) {
	ew.line("")
	ew.line("Latency (ms)")
	t := newTable("lrrrrrrrrr")
	t.add("", "min", "p50", "p75", "p90", "p95", "p99", "p99.9", "max", "mean")
	t.add(percentileRow("latency (from intended send)", tot.Latency)...)
	t.add(percentileRow("service (from actual send)", tot.Service)...)
	if tot.SendLag.Max > 0 {
		// The tester's own delay is part of the latency above; shown so it can be judged.
		t.add(percentileRow("send lag (tester's delay)", tot.SendLag)...)
	}
	// Per outcome, because a flood of fast 429s must not make the node look fast; outcomes that
	// never happened have no latency to show.
	outcomes := []struct {
		key, label string
		count      int64
	}{
		{"ok", "ok only", tot.OK},
		{"limited", "limited only", tot.Limited},
		{"failed", "failed only", tot.Failed},
	}
	for _, o := range outcomes {
		if p, ok := tot.LatencyByOutcome[o.key]; ok && o.count > 0 {
			t.add(percentileRow(o.label, p)...)
		}
	}
	t.write(ew, "  ", reportWidth)
}

func writeStages(ew *errWriter, s *engine.Snapshot) {
	ew.line("")
	if len(s.Stages) == 0 {
		ew.line("Stages: none recorded")
		return
	}
	ew.line("Stages (latency in ms, from intended send)")
	t := newTable("rrrrrrrrrrrrr")
	t.add("#", "rate", "planned", "ran", "rps", "p50", "p90", "p99", "2xx", "limited", "failed", "rpcerr", "dropped")
	for i, st := range s.Stages {
		sum := &st.Summary
		rate := st.Spec.Rate.String()
		if s.Mode == engine.ModeClosed {
			rate = "-" // closed loop ignores the rate: connections set the pace
		}
		planned := "open"
		if st.Spec.Duration > 0 {
			planned = st.Spec.Duration.String()
		}
		t.add(formatInt(int64(i+1)), rate, planned, formatSeconds(sum.DurationS), formatRPS(sum.RPS),
			formatMs(sum.Latency.P50), formatMs(sum.Latency.P90), formatMs(sum.Latency.P99),
			formatInt(sum2xx(sum.Status)), formatInt(sum.Limited), formatInt(sum.Failed),
			formatInt(sumCounts(sum.RPCErrors)), formatInt(sum.Dropped))
	}
	t.write(ew, "  ", reportWidth)
}

func writeStatuses(ew *errWriter, tot *engine.Summary) {
	ew.line("")
	if len(tot.Status) == 0 {
		ew.line("HTTP status: none received")
		return
	}
	ew.printf("HTTP status (share of %d completed)\n", tot.Completed)
	t := newTable("rrr")
	t.add("code", "count", "share")
	for _, code := range sortedCodes(tot.Status) {
		t.add(code, formatInt(tot.Status[code]), formatPct(tot.Status[code], tot.Completed))
	}
	t.write(ew, "  ", reportWidth)
}

func writeTransportErrors(ew *errWriter, tot *engine.Summary) {
	ew.line("")
	if sumCounts(tot.Errors) == 0 {
		ew.line("Transport errors: none")
		return
	}
	ew.line("Transport errors (no HTTP status)")
	t := newTable("lrr")
	t.add("class", "count", "share")
	for _, class := range sortedByCount(tot.Errors) {
		t.add(class, formatInt(tot.Errors[class]), formatPct(tot.Errors[class], tot.Completed))
	}
	t.write(ew, "  ", reportWidth)
}

func writeRPCErrors(ew *errWriter, tot *engine.Summary, messages map[string]string) {
	ew.line("")
	if sumCounts(tot.RPCErrors) == 0 {
		ew.line("JSON-RPC errors: none")
		return
	}
	// Items of a batch are counted apart, so the share of completed requests can pass 100%.
	ew.line("JSON-RPC errors (inside HTTP answers; batch items counted apart)")
	t := newTable("rrrl")
	t.add("code", "count", "share", "message")
	for _, code := range sortedByCount(tot.RPCErrors) {
		t.add(code, formatInt(tot.RPCErrors[code]), formatPct(tot.RPCErrors[code], tot.Completed),
			oneLine(messages[code]))
	}
	t.write(ew, "  ", reportWidth)
}

func writeRateLimitHeaders(ew *errWriter, headers map[string]string) {
	if len(headers) == 0 {
		return
	}
	ew.line("")
	ew.line("Rate-limit headers (last seen)")
	names := make([]string, 0, len(headers))
	for n := range headers {
		names = append(names, n)
	}
	sort.Strings(names)
	t := newTable("ll")
	for _, n := range names {
		t.add(n, oneLine(headers[n]))
	}
	t.write(ew, "  ", reportWidth)
}

func writeEvents(ew *errWriter, events []engine.Event) {
	ew.line("")
	if len(events) == 0 {
		ew.line("Events: none")
		return
	}
	ew.line("Events")
	t := newTable("rll")
	t.add("t", "kind", "detail")
	for _, e := range events {
		t.add(fmt.Sprintf("%.1fs", e.T), e.Kind, oneLine(e.Detail))
	}
	t.write(ew, "  ", reportWidth)
}
