package tui

import (
	"fmt"
	"math"
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
	t.add(percentileRow("latency", tot.Latency)...)
	t.add(percentileRow("service", tot.Service)...)
	note := "latency is from the intended send (what a client on the schedule waits), service " +
		"from the actual send (what the server took)"
	if tot.SendLag.Max > 0 {
		// The tester's own delay is part of the latency above; shown so it can be judged.
		t.add(percentileRow("send lag", tot.SendLag)...)
		note += "; send lag is the tester's own delay, part of latency"
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
	t.write(ew, "  ", ew.width)
	// The labels stay short so that nine columns of numbers fit 80 columns; what they mean is
	// said once, below.
	ew.paragraph("  ", "  ", note)
}

func writeStages(ew *errWriter, s *engine.Snapshot) {
	ew.line("")
	if len(s.Stages) == 0 {
		ew.line("Stages: none recorded")
		return
	}
	ew.line("Stages (latency in ms, from intended send)")
	t := newTable("rrrrrrrrrrrr")
	t.add("#", "rate", "ran", "rps", "p50", "p90", "p99", "2xx", "lim", "fail", "rpcerr", "drop")
	for i := range s.Stages {
		st := &s.Stages[i]
		sum := &st.Summary
		rate := st.Spec.Rate.String()
		if s.Mode == engine.ModeClosed {
			rate = "-" // closed loop ignores the rate: connections set the pace
		}
		if !stageRan(st) {
			// Its zeros are no measurement: 0 ms would read as fast.
			t.addSpan(notRunText(st), formatInt(int64(i+1)), rate)
			continue
		}
		t.add(formatInt(int64(i+1)), rate, stageTime(st), formatRPS(sum.RPS),
			formatMs(sum.Latency.P50), formatMs(sum.Latency.P90), formatMs(sum.Latency.P99),
			formatInt(sum2xx(sum.Status)), formatInt(sum.Limited), formatInt(sum.Failed),
			formatInt(sumCounts(sum.RPCErrors)), formatInt(sum.Dropped))
	}
	t.write(ew, "  ", ew.width)
	ew.paragraph("  ", "  ", "lim: rate-limited (429 and the [limits] codes); ran: the time active, "+
		"\"3.2s/8s\" when cut short of its plan")
}

// stageTime is how long a stage ran, and its plan's length when it ran clearly shorter (the
// run was stopped in it, or --duration cut it): "8s", "3.2s/8s".
func stageTime(st *engine.StageStats) string {
	ran := formatSpan(st.Summary.DurationS)
	planned := st.Spec.Duration.Seconds()
	if planned > 0 && st.Summary.DurationS < planned*stageCutShare {
		ran += "/" + formatSpan(planned)
	}
	return ran
}

// formatSpan writes a stage's length short: to a tenth of a second under a minute ("8.1s"),
// to the second above ("1h30m0s", not "1h29m59.9s").
func formatSpan(s float64) string {
	if s >= 60 {
		return formatSeconds(math.Round(s))
	}
	return formatSeconds(roundTenth(s))
}

// stageCutShare is how much of its plan a stage must have run to read as complete: a stage's
// span runs from its first to its last answer, a little under its plan even when it ran whole.
const stageCutShare = 0.9

// notRunText says that a stage never ran (the run ended first, or n skipped it), and its plan.
func notRunText(st *engine.StageStats) string {
	if st.Spec.Duration > 0 {
		return "did not run (planned " + st.Spec.Duration.String() + ")"
	}
	return "did not run"
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
	t.write(ew, "  ", ew.width)
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
	t.write(ew, "  ", ew.width)
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
	t.write(ew, "  ", ew.width)
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
	t.write(ew, "  ", ew.width)
}

func writeEvents(ew *errWriter, events []engine.Event) {
	ew.line("")
	if len(events) == 0 {
		ew.line("Events: none")
		return
	}
	ew.line("Events")
	t := newTable("rll").giveWay(2, true)
	t.add("t", "kind", "detail")
	for _, e := range events {
		t.add(fmt.Sprintf("%.1fs", e.T), e.Kind, oneLine(e.Detail))
	}
	t.write(ew, "  ", ew.width)
}
