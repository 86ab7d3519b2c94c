package runtext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// PercentileKey names a percentile as profiles write it: 99 → "p99", 99.9 → "p999".
func PercentileKey(p float64) string {
	if p == 0 {
		p = 99
	}
	return "p" + strings.ReplaceAll(strconv.FormatFloat(p, 'f', -1, 64), ".", "")
}

// SLOBounds are the bounds an SLO sets: "p99 ≤ 50 ms", "limited ≤ 1%", "failed ≤ 0.1%", and the
// least success share when it has one, named success (the dashboard, short of room, says "ok").
func SLOBounds(s engine.SearchSLO, success string) []string {
	var parts []string
	if s.LatencyMs > 0 {
		parts = append(parts, PercentileKey(s.Percentile)+" ≤ "+textfmt.Ms(s.LatencyMs)+" ms")
	}
	parts = append(parts, "limited ≤ "+textfmt.Percent(s.MaxLimitedPct), "failed ≤ "+textfmt.Percent(s.MaxFailedPct))
	if s.MinSuccessPct > 0 {
		parts = append(parts, success+" ≥ "+textfmt.Percent(s.MinSuccessPct))
	}
	return parts
}

// SLOText writes the SLO whole: "p99 ≤ 50 ms, limited ≤ 1%, failed ≤ 0.1%, the node keeps up …".
func SLOText(s engine.SearchSLO) string {
	parts := append(SLOBounds(s, "success"), "the node keeps up (answers ≥ 97% of sends)", "nothing dropped, tester not saturated")
	return strings.Join(parts, ", ")
}

// ProbeVerdict is "pass", or "FAIL" and why; "(superseded)" when a later probe contradicted it.
func ProbeVerdict(p engine.SearchProbe) string {
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

// VerdictKeep is the room a probe's verdict keeps before the table's gaps shrink: one breach
// with its "FAIL" ("FAIL limited 4.76% > 1%"), so that a breach is broken only when it must.
const VerdictKeep = 26

// SettingsTable says what the search looked for and how.
func SettingsTable(r *engine.SearchResult) *textfmt.Table {
	s := r.Settings
	t := textfmt.NewTable("ll").GiveWay(1, true) // the SLO is read whole, never cut
	t.Caption = "How the limit was searched"
	t.Add("SLO", SLOText(r.SLO))
	t.Add("strategy", fmt.Sprintf("from %s, ×2 until the SLO breaks, then bisection to %s; up to %s",
		textfmt.PerSec(s.StartRate), textfmt.Percent(s.PrecisionPct), textfmt.PerSec(s.MaxRate)))
	t.Add("probes", fmt.Sprintf("%s measured after %s settling (not counted); budget %s",
		textfmt.Seconds(s.ProbeS), textfmt.Seconds(s.SettleS), textfmt.Seconds(s.BudgetS)))
	return t
}

// ProbeTable is one row per probe: rate, goodput, the SLO's latency, shares, verdict. A verdict
// lists every breach, whole: wrapped, and wide enough for one breach a line before the gaps
// shrink.
func ProbeTable(r *engine.SearchResult) *textfmt.Table {
	t := textfmt.NewTable("rlrrrrrl", "#", "step", "rate", "ok/s", PercentileKey(r.SLO.Percentile)+" ms",
		"limited", "failed", "verdict").GiveWay(7, true).KeepAtLeast(VerdictKeep)
	t.Caption, t.Empty = "Probes", "no probe ran"
	for _, p := range r.Probes {
		t.Add(strconv.Itoa(p.N), p.Step, textfmt.PerSec(p.Rate), textfmt.RPS(p.Goodput), textfmt.Ms(p.LatencyMs),
			textfmt.Percent(p.LimitedPct), textfmt.Percent(p.FailedPct), ProbeVerdict(p))
	}
	return t
}

// AnswerTable details the answer: the limit, the first bad rate and why, the bracket, and how
// the search went.
func AnswerTable(r *engine.SearchResult) *textfmt.Table {
	a := r.Answer
	t := textfmt.NewTable("ll").GiveWay(1, true)
	if a.Found {
		t.Add("limit", fmt.Sprintf("%s (goodput %s ok/s)", textfmt.PerSec(a.Rate), textfmt.RPS(a.Goodput)))
	}
	if a.FirstBad > 0 {
		var why []string
		for _, b := range a.Breaches {
			why = append(why, b.Text)
		}
		t.Add("first bad", textfmt.PerSec(a.FirstBad)+": "+strings.Join(why, "; "))
	}
	if a.Found && a.FirstBad > 0 {
		t.Add("bracket", fmt.Sprintf("%s wide (precision %s)", textfmt.Percent(a.GapPct), textfmt.Percent(r.Settings.PrecisionPct)))
	}
	t.Add("search", fmt.Sprintf("%d probes in %s; ended: %s", len(r.Probes), textfmt.Seconds(r.ElapsedS), endText(r.EndReason)))
	return t
}

func endText(reason string) string {
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

// WriteAnswer writes the search's answer in a sentence, then its details (AnswerTable).
func WriteAnswer(w *textfmt.Writer, r *engine.SearchResult) {
	w.List("Answer: ", "  ", r.Answer.Text)
	w.Table(AnswerTable(r), "  ")
}

// WriteLimiter writes the limiter estimate, if there is one: sentences, all of them, wrapped
// and never cut.
func WriteLimiter(w *textfmt.Writer, l *engine.LimiterEstimate) {
	if l == nil {
		return
	}
	w.Line("")
	w.Paragraph("", "  ", LimiterHeading(l))
	if l.Nginx != "" {
		w.Paragraph("  ", "    ", "like nginx: limit_req "+l.Nginx+"  (within the ± above)")
	}
	for _, n := range l.Notes {
		w.Paragraph("  - ", "    ", n)
	}
}

// LimiterHeading: "Limiter: none detected", "Limiter: token bucket, rate …".
func LimiterHeading(l *engine.LimiterEstimate) string {
	switch l.Kind {
	case "none":
		return "Limiter: none detected"
	case "token bucket":
		return "Limiter: " + LimiterSummary(l)
	}
	return "Limiter: " + l.Kind
}

// LimiterSummary: "token bucket, rate 1000 ± 0.2/s, burst 60 ± 2 (burst probe), nodelay".
func LimiterSummary(l *engine.LimiterEstimate) string {
	trim := textfmt.TrimZeros
	s := fmt.Sprintf("token bucket, rate %s ± %s/s", trim(textfmt.Sig(l.Rate, 4, 3)), trim(textfmt.Sig(l.RateErr, 2, 3)))
	switch {
	case l.BurstFrom == "":
		s += ", burst unknown"
	case l.BurstAtLeast:
		s += fmt.Sprintf(", burst at least %s (%s)", trim(textfmt.Sig(l.Burst, 3, 1)), l.BurstFrom)
	default:
		s += fmt.Sprintf(", burst %s ± %s (%s)", trim(textfmt.Sig(l.Burst, 3, 1)), trim(textfmt.Sig(l.BurstErr, 2, 1)), l.BurstFrom)
	}
	if l.Delay != "" {
		s += ", " + l.Delay
	}
	return s
}
