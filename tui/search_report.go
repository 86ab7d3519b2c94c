package tui

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// WriteSearch writes a find-limit search for people: the SLO and settings, one row per probe,
// the answer (highest rate that met the SLO, first that did not and why) and the limiter
// estimate. Plain text in width cells (0: DefaultWidth), like the report it is part of.
func WriteSearch(w io.Writer, r *engine.SearchResult, width int) error {
	ew := textfmt.NewWriter(w, width)
	writeSearchSection(ew, r)
	return ew.Err()
}

func writeSearchSection(ew *textfmt.Writer, r *engine.SearchResult) {
	if r == nil {
		return
	}
	ew.Line("")
	ew.Line("Find the limit")
	writeSearchSettings(ew, r)
	ew.Line("")
	writeProbeTable(ew, r.Probes, r.SLO)
	ew.Line("")
	writeSearchAnswer(ew, r)
	writeSearchLimiter(ew, r.Limiter)
}

func writeSearchSettings(ew *textfmt.Writer, r *engine.SearchResult) {
	t := textfmt.NewTable("ll").GiveWay(1, true) // the SLO is read whole, never cut
	for _, row := range searchSettingsRows(r) {
		t.Add(row...)
	}
	ew.Table(t, "  ")
}

// searchSettingsRows say what the search looked for and how (text and HTML reports).
func searchSettingsRows(r *engine.SearchResult) [][]string {
	s := r.Settings
	return [][]string{
		{"SLO", searchSLOText(r.SLO)},
		{"strategy", fmt.Sprintf("from %s, ×2 until the SLO breaks, then bisection to %s; up to %s",
			textfmt.PerSec(s.StartRate), textfmt.Percent(s.PrecisionPct), textfmt.PerSec(s.MaxRate))},
		{"probes", fmt.Sprintf("%s measured after %s settling (not counted); budget %s",
			textfmt.Seconds(s.ProbeS), textfmt.Seconds(s.SettleS), textfmt.Seconds(s.BudgetS))},
	}
}

// searchSLOText writes the SLO: "p99 ≤ 50 ms, limited ≤ 1%, failed ≤ 0.1%".
func searchSLOText(s engine.SearchSLO) string {
	var parts []string
	if s.LatencyMs > 0 {
		parts = append(parts, searchPercentileKey(s.Percentile)+" ≤ "+textfmt.Ms(s.LatencyMs)+" ms")
	}
	parts = append(parts, "limited ≤ "+textfmt.Percent(s.MaxLimitedPct), "failed ≤ "+textfmt.Percent(s.MaxFailedPct))
	if s.MinSuccessPct > 0 {
		parts = append(parts, "success ≥ "+textfmt.Percent(s.MinSuccessPct))
	}
	parts = append(parts, "the node keeps up (answers ≥ 97% of sends)", "nothing dropped, tester not saturated")
	return strings.Join(parts, ", ")
}

// searchPercentileKey names a percentile as profiles write it: 99 → "p99", 99.9 → "p999".
func searchPercentileKey(p float64) string {
	if p == 0 {
		p = 99
	}
	return "p" + strings.ReplaceAll(strconv.FormatFloat(p, 'f', -1, 64), ".", "")
}

// writeProbeTable is one row per probe: rate, goodput, the SLO's latency, shares, verdict.
func writeProbeTable(ew *textfmt.Writer, probes []engine.SearchProbe, slo engine.SearchSLO) {
	if len(probes) == 0 {
		ew.Line("  no probe ran")
		return
	}
	// A verdict lists every breach, whole: wrapped, and wide enough for one breach a line
	// ("FAIL limited 4.76% > 1%") before the gaps shrink.
	t := textfmt.NewTable("rlrrrrrl").GiveWay(7, true).KeepAtLeast(verdictKeep)
	t.Add(probeHead(slo)...)
	for _, p := range probes {
		t.Add(probeRow(p)...)
	}
	ew.Table(t, "  ")
}

// verdictKeep is the room a probe's verdict keeps before the table's gaps shrink: one breach
// with its "FAIL", so that a breach is broken only when it must.
const verdictKeep = 26

func probeHead(slo engine.SearchSLO) []string {
	return []string{"#", "step", "rate", "ok/s", searchPercentileKey(slo.Percentile) + " ms", "limited", "failed", "verdict"}
}

// probeRow is one probe's row of the probe table (text and HTML reports).
func probeRow(p engine.SearchProbe) []string {
	return []string{strconv.Itoa(p.N), p.Step, textfmt.PerSec(p.Rate), textfmt.RPS(p.Goodput), textfmt.Ms(p.LatencyMs),
		textfmt.Percent(p.LimitedPct), textfmt.Percent(p.FailedPct), probeVerdict(p)}
}

// probeVerdict is "pass", or "FAIL" and why; "(superseded)" when a later probe contradicted it.
func probeVerdict(p engine.SearchProbe) string {
	v := p.Verdict
	if v == "fail" {
		var why []string
		for _, b := range p.Breaches {
			why = append(why, b.Text)
		}
		v = "FAIL " + strings.Join(why, "; ")
	}
	if p.Superseded {
		v += " (superseded)"
	}
	return v
}

func writeSearchAnswer(ew *textfmt.Writer, r *engine.SearchResult) {
	ew.List("Answer: ", "  ", r.Answer.Text)
	t := textfmt.NewTable("ll").GiveWay(1, true)
	for _, row := range searchAnswerRows(r) {
		t.Add(row...)
	}
	ew.Table(t, "  ")
}

// searchAnswerRows detail the answer: the limit, the first bad rate and why, the bracket, and
// how the search went (text and HTML reports).
func searchAnswerRows(r *engine.SearchResult) [][]string {
	a := r.Answer
	var rows [][]string
	if a.Found {
		rows = append(rows, []string{"limit", fmt.Sprintf("%s (goodput %s ok/s)", textfmt.PerSec(a.Rate), textfmt.RPS(a.Goodput))})
	}
	if a.FirstBad > 0 {
		var why []string
		for _, b := range a.Breaches {
			why = append(why, b.Text)
		}
		rows = append(rows, []string{"first bad", textfmt.PerSec(a.FirstBad) + ": " + strings.Join(why, "; ")})
	}
	if a.Found && a.FirstBad > 0 {
		rows = append(rows, []string{"bracket", fmt.Sprintf("%s wide (precision %s)", textfmt.Percent(a.GapPct), textfmt.Percent(r.Settings.PrecisionPct))})
	}
	return append(rows, []string{"search", fmt.Sprintf("%d probes in %s; ended: %s", len(r.Probes), textfmt.Seconds(r.ElapsedS), searchEndText(r.EndReason))})
}

func searchEndText(reason string) string {
	switch reason {
	case "converged":
		return "converged (bracket within the precision)"
	case "budget":
		return "time budget spent"
	case "max":
		return "reached the maximum rate"
	case "never_met":
		return "no rate met the SLO"
	case "stopped":
		return "stopped (best answer so far)"
	case "probes":
		return "probe count limit"
	}
	return reason
}

func writeSearchLimiter(ew *textfmt.Writer, l *engine.LimiterEstimate) {
	if l == nil {
		return
	}
	ew.Line("")
	// Sentences, all of them: wrapped, never cut.
	ew.Paragraph("", "  ", searchLimiterHeading(l))
	if l.Nginx != "" {
		ew.Paragraph("  ", "    ", "like nginx: limit_req "+l.Nginx+"  (within the ± above)")
	}
	for _, n := range l.Notes {
		ew.Paragraph("  - ", "    ", n)
	}
}

// searchLimiterHeading: "Limiter: none detected", "Limiter: token bucket, rate …".
func searchLimiterHeading(l *engine.LimiterEstimate) string {
	switch l.Kind {
	case "none":
		return "Limiter: none detected"
	case "token bucket":
		return "Limiter: " + searchLimiterSummary(l)
	}
	return "Limiter: " + l.Kind
}

// searchLimiterSummary: "token bucket, rate 1000 ± 0.2/s, burst 60 ± 2 (burst probe), nodelay".
func searchLimiterSummary(l *engine.LimiterEstimate) string {
	s := fmt.Sprintf("token bucket, rate %s ± %s/s", textfmt.TrimZeros(textfmt.Sig(l.Rate, 4, 3)), textfmt.TrimZeros(textfmt.Sig(l.RateErr, 2, 3)))
	switch {
	case l.BurstFrom == "":
		s += ", burst unknown"
	case l.BurstAtLeast:
		s += fmt.Sprintf(", burst at least %s (%s)", textfmt.TrimZeros(textfmt.Sig(l.Burst, 3, 1)), l.BurstFrom)
	default:
		s += fmt.Sprintf(", burst %s ± %s (%s)", textfmt.TrimZeros(textfmt.Sig(l.Burst, 3, 1)), textfmt.TrimZeros(textfmt.Sig(l.BurstErr, 2, 1)), l.BurstFrom)
	}
	if l.Delay != "" {
		s += ", " + l.Delay
	}
	return s
}
