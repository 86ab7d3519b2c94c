package report

import (
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// A run sent side by side to several targets reads: the targets against each other stage by
// stage first (seed 000's table: rate → p95 per node), then how their answers compared, then
// each target's own sections as a run of one target has them (TargetView: its subscriptions
// too, each target's at its own node), then what belongs
// to the run: the node's resources, the events.

// writeTargetsReport writes the text report's body for a run with several targets.
func writeTargetsReport(ew *textfmt.Writer, s *engine.Snapshot) {
	ew.Section(sideBySideTable(s))
	for _, t := range answersTables(s.Answers) {
		ew.Section(t)
	}
	writeAnswerExamples(ew, s.Answers)
	for i := range s.Targets {
		v := s.TargetView(i)
		ew.Line("")
		ew.Paragraph("", "    ", fmt.Sprintf("━━ Target %s: %s  %s", runLabel(i), safetext.Line(s.Targets[i].Name),
			safetext.Line(v.Target)))
		writeRunSections(ew, v, targetTables(v, subsTables(v)...))
	}
	ew.Line("")
	ew.Line("━━ The run")
	for _, t := range append(nodeTables(s), eventsTable(s.Events)) {
		ew.Section(t)
	}
}

// sideBySideTable has, per stage and for the whole run, a row per target: the rate achieved,
// the outcomes, invalid answers when the run checks them, and the latency people quote. With
// two targets a B/A row under each pair says how the second compares with the first.
func sideBySideTable(s *engine.Snapshot) *textfmt.Table {
	rules := false
	for i := range s.Targets {
		rules = rules || s.Targets[i].Totals.Expect != nil
	}
	align, head := "rrlrrrr", []string{"#", "rate", "target", "rps", "ok", "lim", "fail"}
	if rules {
		align, head = align+"r", append(head, "inv")
	}
	t := textfmt.NewTable(align+"rrr", append(head, "p50", "p95", "p99")...).GiveWay(2, false)
	t.Caption = "Targets side by side (latency in ms, from intended send)"
	row := func(num, rate, name string, sum *engine.Summary) {
		cells := []string{num, rate, name, textfmt.RPS(sum.RPS), textfmt.Int(sum.OK), textfmt.Int(sum.Limited), textfmt.Int(sum.Failed)}
		if rules {
			cells = append(cells, "-")
			if sum.Expect != nil {
				cells[len(cells)-1] = textfmt.Int(sum.Expect.Invalid)
			}
		}
		t.Add(append(cells, textfmt.Ms(sum.Latency.P50), textfmt.Ms(sum.Latency.P95), textfmt.Ms(sum.Latency.P99))...)
	}
	block := func(num, rate string, sums []*engine.Summary) {
		for i, sum := range sums {
			name := targetLabel(s, i)
			if sum == nil {
				t.AddSpan("did not run", num, rate, name)
			} else {
				row(num, rate, name, sum)
			}
			num, rate = "", ""
		}
		if len(sums) == 2 && sums[0] != nil && sums[1] != nil {
			t.Add(ratioRow(rules, sums[0], sums[1])...)
		}
	}
	for i := range s.Stages {
		rate := s.Stages[i].Spec.Rate.String()
		if s.Mode == engine.ModeClosed {
			rate = "-"
		}
		block(textfmt.Int(int64(i+1)), rate, stageSums(s, i))
	}
	totals := make([]*engine.Summary, len(s.Targets))
	for i := range s.Targets {
		totals[i] = &s.Targets[i].Totals
	}
	block("all", "", totals)
	t.Note = "ok, lim (rate-limited), fail: answers"
	if rules {
		t.Note += "; inv: failed by an expect rule"
	}
	if len(s.Targets) == 2 {
		t.Note += "; B/A: B's number over A's (latency over 1: B slower; rps under 1: B served less)"
	}
	return t
}

// targetLabel names target i by its letter and name, as the dashboard does: "B erigon".
func targetLabel(s *engine.Snapshot, i int) string {
	return runLabel(i) + " " + safetext.Line(s.Targets[i].Name)
}

// stageSums are each target's summary of stage i; nil for a target that did not run it.
func stageSums(s *engine.Snapshot, i int) []*engine.Summary {
	sums := make([]*engine.Summary, len(s.Targets))
	for k := range s.Targets {
		if st := s.Targets[k].Stages; i < len(st) && runtext.StageRan(&st[i]) {
			sums[k] = &st[i].Summary
		}
	}
	return sums
}

// ratioRow is the B/A row of two targets' summaries: the second's rps and latency over the
// first's; the counts are left blank (their shares are in the rows above).
func ratioRow(rules bool, a, b *engine.Summary) []string {
	cells := []string{"", "", "B/A", ratioText(b.RPS, a.RPS), "", "", ""}
	if rules {
		cells = append(cells, "")
	}
	return append(cells, ratioText(b.Latency.P50, a.Latency.P50), ratioText(b.Latency.P95, a.Latency.P95),
		ratioText(b.Latency.P99, a.Latency.P99))
}

// ratioText writes b over a to three figures: "1.60", "0.987"; "-" when a is 0.
func ratioText(b, a float64) string {
	if a == 0 {
		return "-"
	}
	return textfmt.Sig(b/a, 3, 3)
}
