package report

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// detailTables are the report's tables after the totals and the latency, in order: stages (then
// their invalid answers and cost, when the run has rules or costs), the chain's head, the
// subscriptions (when held), the node's resources (when watched), requests (then theirs), statuses, errors, faults, the expect
// rules broken, rate-limit headers and events. The text report writes each as a section; the
// HTML page draws them below its charts.
func detailTables(s *engine.Snapshot) []*textfmt.Table {
	return append(targetTables(s, append(subsTables(s), nodeTables(s)...)...), eventsTable(s.Events))
}

// targetTables are the detail tables of one target's numbers (a run's, or one target's of a
// run with several), with between put after the stages and the chain's head: the node's
// resources, in a run of one target.
func targetTables(s *engine.Snapshot, between ...*textfmt.Table) []*textfmt.Table {
	tot := &s.Totals
	tables := []*textfmt.Table{stagesTable(s), stageChecksTable(s), chainTable(s)}
	tables = append(tables, between...)
	return append(tables, requestsTable(tot),
		requestChecksTable(tot), statusTable(tot), transportTable(tot), rpcErrorsTable(tot, s.RPCMessages),
		faultsTable(tot), invalidTable(tot), rateLimitTable(s.RateLimitHeaders))
}

// percentileRow is one line of the latency table.
func percentileRow(label string, p engine.Percentiles) []string {
	return []string{label, textfmt.Ms(p.Min), textfmt.Ms(p.P50), textfmt.Ms(p.P75), textfmt.Ms(p.P90),
		textfmt.Ms(p.P95), textfmt.Ms(p.P99), textfmt.Ms(p.P999), textfmt.Ms(p.Max), textfmt.Ms(p.Mean)}
}

func latencyTable(tot *engine.Summary) *textfmt.Table {
	t := textfmt.NewTable("lrrrrrrrrr", "", "min", "p50", "p75", "p90", "p95", "p99", "p99.9", "max", "mean")
	t.Caption = "Latency (ms)"
	t.Add(percentileRow("latency", tot.Latency)...)
	t.Add(percentileRow("service", tot.Service)...)
	// The labels stay short so that nine columns of numbers fit 80 columns; what they mean is
	// said once, below.
	t.Note = "latency is from the intended send (what a client on the schedule waits), service " +
		"from the actual send (what the server took)"
	if tot.SendLag.Max > 0 {
		// The tester's own delay is part of the latency above; shown so it can be judged.
		t.Add(percentileRow("send lag", tot.SendLag)...)
		t.Note += "; send lag is the tester's own delay, part of latency"
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
	return t
}

func stagesTable(s *engine.Snapshot) *textfmt.Table {
	t := textfmt.NewTable("rrrrrrrrrrrr", "#", "rate", "ran", "rps", "p50", "p90", "p99", "2xx", "lim", "fail", "rpcerr", "drop")
	t.Caption, t.Title, t.Empty = "Stages (latency in ms, from intended send)", "Stages", "none recorded"
	t.Note = "lim: rate-limited (429 and the [limits] codes); ran: the time active, \"3.2s/8s\" when cut short of its plan"
	for i := range s.Stages {
		st := &s.Stages[i]
		sum := &st.Summary
		rate := st.Spec.Rate.String()
		if s.Mode == engine.ModeClosed {
			rate = "-" // closed loop ignores the rate: connections set the pace
		}
		if !runtext.StageRan(st) {
			if held := heldText(s, i); held != "" {
				// A stage of subscriptions alone sends nothing: it held them.
				t.AddSpan(held, textfmt.Int(int64(i+1)), rate, stageTime(st))
				continue
			}
			// Its zeros are no measurement: 0 ms would read as fast.
			t.AddSpan(notRunText(st), textfmt.Int(int64(i+1)), rate)
			continue
		}
		t.Add(textfmt.Int(int64(i+1)), rate, stageTime(st), textfmt.RPS(sum.RPS),
			textfmt.Ms(sum.Latency.P50), textfmt.Ms(sum.Latency.P90), textfmt.Ms(sum.Latency.P99),
			textfmt.Int(textfmt.Sum2xx(sum.Status)), textfmt.Int(sum.Limited), textfmt.Int(sum.Failed),
			textfmt.Int(textfmt.SumCounts(sum.RPCErrors)), textfmt.Int(sum.Dropped))
	}
	return t
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

func statusTable(tot *engine.Summary) *textfmt.Table {
	t := textfmt.NewTable("rrr", "code", "count", "share")
	t.Caption, t.Title, t.Empty = fmt.Sprintf("HTTP status (share of %d completed)", tot.Completed), "HTTP status", "none received"
	for _, code := range textfmt.SortedCodes(tot.Status) {
		t.Add(code, textfmt.Int(tot.Status[code]), textfmt.Pct(tot.Status[code], tot.Completed))
	}
	return t
}

func transportTable(tot *engine.Summary) *textfmt.Table {
	t := textfmt.NewTable("lrr", "class", "count", "share")
	t.Caption, t.Title, t.Empty = "Transport errors (no HTTP status)", "Transport errors", "none"
	for _, class := range textfmt.SortedByCount(tot.Errors) {
		if tot.Errors[class] > 0 {
			t.Add(class, textfmt.Int(tot.Errors[class]), textfmt.Pct(tot.Errors[class], tot.Completed))
		}
	}
	return t
}

func rpcErrorsTable(tot *engine.Summary, messages map[string]string) *textfmt.Table {
	t := textfmt.NewTable("rrrl", "code", "count", "share", "message")
	// Items of a batch are counted apart, so the share of completed requests can pass 100%.
	t.Caption, t.Title, t.Empty = "JSON-RPC errors (inside the answers; batch items counted apart)", "JSON-RPC errors", "none"
	for _, code := range textfmt.SortedByCount(tot.RPCErrors) {
		if tot.RPCErrors[code] > 0 {
			t.Add(code, textfmt.Int(tot.RPCErrors[code]), textfmt.Pct(tot.RPCErrors[code], tot.Completed),
				textfmt.OneLine(messages[code]))
		}
	}
	return t
}

// rateLimitTable is the rate-limit headers the target sent last; left out when it sent none.
func rateLimitTable(headers map[string]string) *textfmt.Table {
	t := textfmt.NewTable("ll")
	t.Caption = "Rate-limit headers (last seen)"
	for _, n := range slices.Sorted(maps.Keys(headers)) {
		t.Add(n, textfmt.OneLine(headers[n]))
	}
	return t
}

func eventsTable(events []engine.Event) *textfmt.Table {
	t := textfmt.NewTable("rll", "t", "kind", "detail").GiveWay(2, true)
	t.Caption, t.Empty = "Events", "none"
	for _, e := range events {
		t.Add(fmt.Sprintf("%.1fs", e.T), e.Kind, textfmt.OneLine(e.Detail))
	}
	return t
}
