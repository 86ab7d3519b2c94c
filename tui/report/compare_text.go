package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// WriteCompare writes runs side by side: the totals, then stage by stage (matched by planned
// rate), each number with its difference from the first run, absolute and in percent, marked
// ▲/▼ for up/down and better/worse for what that means. Stages that have no partner are listed
// at the end. Plain text in width cells (0: textfmt.DefaultWidth): two or three runs fit 80
// columns in one table (three without the absolute Δ); more are shown against A in several.
func WriteCompare(w io.Writer, runs []CompareRun, width int) error {
	if len(runs) < 2 {
		return errors.New("write compare: give at least two runs")
	}
	for i, r := range runs {
		if r.Snapshot == nil {
			return fmt.Errorf("write compare: run %s has no snapshot", runLabel(i))
		}
	}
	ew := textfmt.NewWriter(w, width)
	if hasTargets(runs) {
		if err := writeCompareByTarget(ew, runs); err != nil {
			return err
		}
	} else {
		ew.Printf("rpcstress compare: %d runs, deltas against run A\n", len(runs))
		writeCompareRuns(ew, runs)
		writeComparison(ew, NewComparison(runs))
		writeCompareLegend(ew, "run A", runs)
	}
	if ew.Err() != nil {
		return fmt.Errorf("write compare: %w", ew.Err())
	}
	return nil
}

// writeComparison writes the blocks of a comparison: the totals, stage by stage, the stages
// without a partner.
func writeComparison(ew *textfmt.Writer, c Comparison) {
	writeCompareTotals(ew, &c)
	writeCompareSubs(ew, &c)
	for i := range c.Stages {
		writeCompareStage(ew, &c, i)
	}
	writeCompareUnmatched(ew, &c)
}

// writeCompareLegend says how to read the blocks: against what (ref), and the arrows.
func writeCompareLegend(ew *textfmt.Writer, ref string, runs []CompareRun) {
	ew.Line("")
	ew.Paragraph("", "", "Δ and Δ% are against "+ref+". ▲/▼: the number went up/down; better/worse: what that "+
		"means (latency and failures: lower is better; rps and ok: higher; JSON-RPC errors, among the limited "+
		"and failed, are not judged again). Changes under 1 % are not judged."+
		checksLegend(runs))
}

// runLabel names the i-th run: A, B, C …
func runLabel(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("R%d", i+1)
}

// writeCompareRuns names the runs: each file whole, then what it ran, on the same line when
// both fit (a path cut with "…" could not be found again).
func writeCompareRuns(ew *textfmt.Writer, runs []CompareRun) {
	for i, r := range runs {
		s := r.Snapshot
		about := fmt.Sprintf("%s, started %s, %s, %d stages", runtext.ProfileName(s.Profile), formatTime(s.StartedAt),
			orDash(s.EndReason), len(s.Stages))
		head := "  " + r.label(i) + "  "
		switch line := head + r.File + "  (" + about + ")"; {
		case r.File == "":
			ew.Paragraph(head, "     ", about)
		case ansi.StringWidth(line) <= ew.Width():
			ew.Line(line)
		default:
			ew.Paragraph(head, "     ", r.File)
			ew.Paragraph("     ", "     ", about)
		}
		// What the plan alone does not say: the numbers of a run cut short or steered by
		// hand are not the plan's.
		if note := runNote(s); note != "" {
			ew.Paragraph("     ! ", "       ", note)
		}
	}
}

func writeCompareTotals(ew *textfmt.Writer, c *Comparison) {
	sums := make([]*engine.Summary, len(c.Runs))
	var ran []string
	for i, r := range c.Runs {
		sums[i] = &r.Snapshot.Totals
		ran = append(ran, fmt.Sprintf("%s ran %s", r.label(i), formatSpan(runtext.RunSeconds(r.Snapshot))))
	}
	ew.Line("")
	ew.List("", "  ", "Totals  ("+strings.Join(ran, ", ")+")")
	secs := make([]float64, len(c.Runs))
	for i, r := range c.Runs {
		secs[i] = runtext.RunSeconds(r.Snapshot)
	}
	writeCompareTable(ew, labels(c.Runs), sums, secs)
	if why := c.plansDiffer(); why != "" {
		ew.Paragraph("  ", "  ", "the runs' plans differ ("+why+"), so their totals mix different loads: compare the stages below")
	}
}

func writeCompareStage(ew *textfmt.Writer, c *Comparison, i int) {
	m := c.Stages[i]
	sums := make([]*engine.Summary, len(c.Runs))
	lbl := labels(c.Runs)
	var where []string
	for r, j := range m.Index {
		if j < 0 {
			where = append(where, lbl[r]+": none")
			continue
		}
		st := &c.Runs[r].Snapshot.Stages[j]
		if !runtext.StageRan(st) {
			// The run ended first (stopped, or a partial snapshot): its zeros are not latency;
			// or it held subscriptions alone, and says so.
			what := "did not run"
			if held := heldText(c.Runs[r].Snapshot, j); held != "" {
				what = held
			}
			where = append(where, fmt.Sprintf("%s: stage %d %s", lbl[r], j+1, what))
			continue
		}
		sums[r] = &st.Summary
		at := ""
		if !c.ByPosition && st.Spec.Rate != m.Rate {
			at = " (" + st.Spec.Rate.String() + ")" // close enough to pair, but not the same
		}
		where = append(where, fmt.Sprintf("%s: stage %d%s, %s", lbl[r], j+1, at, formatSpan(st.Summary.DurationS)))
	}
	title := fmt.Sprintf("Stage %d", i+1)
	if !c.ByPosition {
		title += " · " + m.Rate.String()
	}
	ew.Line("")
	ew.List("", "  ", title+"   "+strings.Join(where, "   "))
	secs := make([]float64, len(sums))
	for r, sum := range sums {
		if sum != nil {
			secs[r] = sum.DurationS
		}
	}
	for _, sum := range sums[1:] {
		if sum != nil {
			writeCompareTable(ew, lbl, sums, secs)
			writeCompareNode(ew, c, i)
			return
		}
	}
	// Nothing to compare with: A's numbers in one line, not a table of dashes.
	if sums[0] == nil {
		ew.Line("  no run sent anything in this stage")
		return
	}
	ew.Printf("  only in %s: %s rps, p99 %s ms, limited %d, failed %d\n", lbl[0], textfmt.RPS(sums[0].RPS),
		textfmt.Ms(sums[0].Latency.P99), sums[0].Limited, sums[0].Failed)
}

// writeCompareTable writes one block: a row per metric, the reference's value, then for each
// other run its value, Δ, Δ% and the verdict. A nil summary is a run without this stage; secs
// are how long each run's block lasted: when they differ, counts are compared as shares (see
// shareMetrics). When the table is wider than the width (three runs at 80 columns), the
// absolute Δ is left out; when even that is too wide (four runs and more), the lines get wider:
// cut numbers would say nothing.
func writeCompareTable(ew *textfmt.Writer, lbl []string, sums []*engine.Summary, secs []float64) {
	metrics := blockMetrics(durationsDiffer(secs), sums)
	for i, t := range fitCompareTables(lbl, sums, metrics, ew.Width()) {
		if i > 0 {
			ew.Line("")
		}
		for _, l := range t.Lines("  ", 0) { // as wide as it is: cut numbers would say nothing
			ew.Line(l)
		}
	}
	if durationsDiffer(secs) {
		var spans []string
		for r, s := range secs {
			if s > 0 {
				spans = append(spans, lbl[r]+" "+formatSpan(s))
			}
		}
		ew.Paragraph("  ", "  ", "the runs lasted differently ("+strings.Join(spans, ", ")+
			"): answers compared as shares, not counts (of the answers; dropped: of scheduled; rpc errors: of the calls)")
	}
}

// fitCompareTables lays out one block in width cells: with the absolute Δ when that fits, else
// without it, else as several tables, each of run A and as many of the other runs as fit (four
// targets in one table made 91-cell lines). Only a run alone beside A may still pass the width.
func fitCompareTables[T any](lbl []string, sums []*T, metrics []metricOf[T], width int) []*textfmt.Table {
	if t := compareTable(lbl, sums, metrics, true); t.NaturalWidth("  ") <= width {
		return []*textfmt.Table{t}
	}
	var out []*textfmt.Table
	for per := len(sums) - 1; per >= 1; per-- {
		out = out[:0]
		fits := true
		for from := 1; from < len(sums); from += per {
			to := min(from+per, len(sums))
			t := compareTable(append([]string{lbl[0]}, lbl[from:to]...), append([]*T{sums[0]}, sums[from:to]...),
				metrics, false)
			fits = fits && t.NaturalWidth("  ") <= width
			out = append(out, t)
		}
		if fits {
			break
		}
	}
	return out
}

// compareTable lays out one block, with or without the absolute Δ column: a row per metric,
// a column per run of what it compares (nil: the run has none).
func compareTable[T any](lbl []string, sums []*T, metrics []metricOf[T], withAbs bool) *textfmt.Table {
	perRun, align := []string{"", "Δ", "Δ%", ""}, "rrrl"
	if !withAbs {
		perRun, align = []string{"", "Δ%", ""}, "rrl"
	}
	t := textfmt.NewTable("lr" + strings.Repeat(align, len(sums)-1))
	head := []string{"", lbl[0]}
	for r := 1; r < len(sums); r++ {
		perRun[0] = lbl[r]
		head = append(head, perRun...)
	}
	t.Add(head...)
	for _, m := range metrics {
		row := []string{m.Name, "-"}
		has := func(s *T) bool { return s != nil && (m.Has == nil || m.Has(s)) }
		if has(sums[0]) {
			row[1] = m.Format(m.Value(sums[0]))
		}
		for r := 1; r < len(sums); r++ {
			cells := make([]string, len(perRun))
			switch {
			case !has(sums[r]):
				cells[0] = "-"
			case !has(sums[0]):
				cells[0] = m.Format(m.Value(sums[r]))
			default:
				d := compareValue(m, m.Value(sums[0]), m.Value(sums[r]))
				cells[0] = m.Format(m.Value(sums[r]))
				if withAbs {
					cells[1], cells[2], cells[3] = formatDeltaAbs(m, d), formatDeltaPct(d), verdictText(d)
				} else {
					cells[1], cells[2] = formatDeltaPct(d), verdictText(d)
					if d.Abs == 0 {
						cells[1] = "="
					}
				}
			}
			row = append(row, cells...)
		}
		t.Add(row...)
	}
	return t
}

func formatDeltaAbs[T any](m metricOf[T], d Delta) string {
	f := m.Format
	if m.Delta != nil {
		f = m.Delta
	}
	switch {
	case d.Abs == 0:
		return "="
	case d.Abs < 0:
		return "-" + f(-d.Abs)
	}
	return "+" + f(d.Abs)
}

func formatDeltaPct(d Delta) string {
	if d.Abs == 0 || math.IsNaN(d.Pct) {
		return ""
	}
	return fmt.Sprintf("%+.1f%%", d.Pct)
}

// verdictText marks a change: the arrow is the direction of the number, the word its meaning,
// so "▼ better" for fewer errors and "▼ worse" for less throughput read without a legend.
func verdictText(d Delta) string {
	arrow := "▼"
	if d.Abs > 0 {
		arrow = "▲"
	}
	switch d.Verdict {
	case Better:
		return arrow + " better"
	case Worse:
		return arrow + " worse"
	}
	return ""
}

func writeCompareUnmatched(ew *textfmt.Writer, c *Comparison) {
	lbl := labels(c.Runs)
	var lines []string
	for i, m := range c.Stages {
		for r, j := range m.Index {
			if j < 0 {
				lines = append(lines, fmt.Sprintf("run %s stage %d (%s): no stage %s in %s",
					lbl[0], i+1, m.Rate.String(), c.matchedBy(), lbl[r]))
			}
		}
	}
	for _, x := range c.Extra {
		st := &c.Runs[x.Run].Snapshot.Stages[x.Stage]
		sum := &st.Summary
		there := fmt.Sprintf("  (%s there: %s rps, p99 %s ms, limited %d, failed %d)", lbl[x.Run],
			textfmt.RPS(sum.RPS), textfmt.Ms(sum.Latency.P99), sum.Limited, sum.Failed)
		if !runtext.StageRan(st) {
			there = fmt.Sprintf("  (%s did not run it: the run ended first)", lbl[x.Run])
		}
		lines = append(lines, fmt.Sprintf("run %s stage %d (%s): no stage %s in %s", lbl[x.Run], x.Stage+1,
			st.Spec.Rate.String(), c.matchedBy(), lbl[0]), there)
	}
	if len(lines) == 0 {
		return
	}
	ew.Line("")
	if c.ByPosition {
		ew.Line("Not matched (closed-loop runs have no rate: stages pair by position)")
	} else {
		ew.Line("Not matched (stages pair by planned rate, within 1 %)")
	}
	for _, l := range lines {
		ew.Line("  " + l)
	}
}

// roundTenth rounds seconds to a tenth, enough to tell a full stage from a cut one.
func roundTenth(s float64) float64 { return math.Round(s*10) / 10 }

// matchedBy is how stages were paired, as the unmatched lines say it.
func (c *Comparison) matchedBy() string {
	if c.ByPosition {
		return "at this position"
	}
	return "at this rate"
}
