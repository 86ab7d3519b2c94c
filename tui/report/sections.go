package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// percentileRow is one line of the latency table.
func percentileRow(label string, p engine.Percentiles) []string {
	return []string{label, textfmt.Ms(p.Min), textfmt.Ms(p.P50), textfmt.Ms(p.P75), textfmt.Ms(p.P90),
		textfmt.Ms(p.P95), textfmt.Ms(p.P99), textfmt.Ms(p.P999), textfmt.Ms(p.Max), textfmt.Ms(p.Mean)}
}

func writeLatency(ew *textfmt.Writer, tot *engine.Summary) {
	ew.Line("")
	ew.Line("Latency (ms)")
	t := textfmt.NewTable("lrrrrrrrrr")
	t.Add("", "min", "p50", "p75", "p90", "p95", "p99", "p99.9", "max", "mean")
	t.Add(percentileRow("latency", tot.Latency)...)
	t.Add(percentileRow("service", tot.Service)...)
	note := "latency is from the intended send (what a client on the schedule waits), service " +
		"from the actual send (what the server took)"
	if tot.SendLag.Max > 0 {
		// The tester's own delay is part of the latency above; shown so it can be judged.
		t.Add(percentileRow("send lag", tot.SendLag)...)
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
			t.Add(percentileRow(o.label, p)...)
		}
	}
	ew.Table(t, "  ")
	// The labels stay short so that nine columns of numbers fit 80 columns; what they mean is
	// said once, below.
	ew.Paragraph("  ", "  ", note)
}

func writeStages(ew *textfmt.Writer, s *engine.Snapshot) {
	ew.Line("")
	if len(s.Stages) == 0 {
		ew.Line("Stages: none recorded")
		return
	}
	ew.Line("Stages (latency in ms, from intended send)")
	t := textfmt.NewTable("rrrrrrrrrrrr")
	t.Add("#", "rate", "ran", "rps", "p50", "p90", "p99", "2xx", "lim", "fail", "rpcerr", "drop")
	for i := range s.Stages {
		st := &s.Stages[i]
		sum := &st.Summary
		rate := st.Spec.Rate.String()
		if s.Mode == engine.ModeClosed {
			rate = "-" // closed loop ignores the rate: connections set the pace
		}
		if !runtext.StageRan(st) {
			// Its zeros are no measurement: 0 ms would read as fast.
			t.AddSpan(notRunText(st), textfmt.Int(int64(i+1)), rate)
			continue
		}
		t.Add(textfmt.Int(int64(i+1)), rate, stageTime(st), textfmt.RPS(sum.RPS),
			textfmt.Ms(sum.Latency.P50), textfmt.Ms(sum.Latency.P90), textfmt.Ms(sum.Latency.P99),
			textfmt.Int(textfmt.Sum2xx(sum.Status)), textfmt.Int(sum.Limited), textfmt.Int(sum.Failed),
			textfmt.Int(textfmt.SumCounts(sum.RPCErrors)), textfmt.Int(sum.Dropped))
	}
	ew.Table(t, "  ")
	ew.Paragraph("  ", "  ", "lim: rate-limited (429 and the [limits] codes); ran: the time active, "+
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
		return textfmt.Seconds(math.Round(s))
	}
	return textfmt.Seconds(roundTenth(s))
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

func writeStatuses(ew *textfmt.Writer, tot *engine.Summary) {
	ew.Line("")
	if len(tot.Status) == 0 {
		ew.Line("HTTP status: none received")
		return
	}
	ew.Printf("HTTP status (share of %d completed)\n", tot.Completed)
	t := textfmt.NewTable("rrr")
	t.Add("code", "count", "share")
	for _, code := range textfmt.SortedCodes(tot.Status) {
		t.Add(code, textfmt.Int(tot.Status[code]), textfmt.Pct(tot.Status[code], tot.Completed))
	}
	ew.Table(t, "  ")
}

func writeTransportErrors(ew *textfmt.Writer, tot *engine.Summary) {
	ew.Line("")
	if textfmt.SumCounts(tot.Errors) == 0 {
		ew.Line("Transport errors: none")
		return
	}
	ew.Line("Transport errors (no HTTP status)")
	t := textfmt.NewTable("lrr")
	t.Add("class", "count", "share")
	for _, class := range textfmt.SortedByCount(tot.Errors) {
		t.Add(class, textfmt.Int(tot.Errors[class]), textfmt.Pct(tot.Errors[class], tot.Completed))
	}
	ew.Table(t, "  ")
}

func writeRPCErrors(ew *textfmt.Writer, tot *engine.Summary, messages map[string]string) {
	ew.Line("")
	if textfmt.SumCounts(tot.RPCErrors) == 0 {
		ew.Line("JSON-RPC errors: none")
		return
	}
	// Items of a batch are counted apart, so the share of completed requests can pass 100%.
	ew.Line("JSON-RPC errors (inside HTTP answers; batch items counted apart)")
	t := textfmt.NewTable("rrrl")
	t.Add("code", "count", "share", "message")
	for _, code := range textfmt.SortedByCount(tot.RPCErrors) {
		t.Add(code, textfmt.Int(tot.RPCErrors[code]), textfmt.Pct(tot.RPCErrors[code], tot.Completed),
			textfmt.OneLine(messages[code]))
	}
	ew.Table(t, "  ")
}

func writeRateLimitHeaders(ew *textfmt.Writer, headers map[string]string) {
	if len(headers) == 0 {
		return
	}
	ew.Line("")
	ew.Line("Rate-limit headers (last seen)")
	names := make([]string, 0, len(headers))
	for n := range headers {
		names = append(names, n)
	}
	sort.Strings(names)
	t := textfmt.NewTable("ll")
	for _, n := range names {
		t.Add(n, textfmt.OneLine(headers[n]))
	}
	ew.Table(t, "  ")
}

func writeEvents(ew *textfmt.Writer, events []engine.Event) {
	ew.Line("")
	if len(events) == 0 {
		ew.Line("Events: none")
		return
	}
	ew.Line("Events")
	t := textfmt.NewTable("rll").GiveWay(2, true)
	t.Add("t", "kind", "detail")
	for _, e := range events {
		t.Add(fmt.Sprintf("%.1fs", e.T), e.Kind, textfmt.OneLine(e.Detail))
	}
	ew.Table(t, "  ")
}
