package tui

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// WriteCompare writes runs side by side: the totals, then stage by stage (matched by planned
// rate), each number with its difference from the first run, absolute and in percent, marked
// ▲/▼ for up/down and better/worse for what that means. Stages that have no partner are listed
// at the end. Plain text; two or three runs fit in 100 columns, more make wider lines.
func WriteCompare(w io.Writer, runs []CompareRun) error {
	if len(runs) < 2 {
		return errors.New("write compare: give at least two runs")
	}
	for i, r := range runs {
		if r.Snapshot == nil {
			return fmt.Errorf("write compare: run %s has no snapshot", runLabel(i))
		}
	}
	c := NewComparison(runs)
	ew := &errWriter{w: w}
	width := reportWidth
	if len(runs) > 3 {
		width = math.MaxInt32 // more runs than fit: wider lines beat cut ones
	}
	writeCompareRuns(ew, runs, width)
	writeCompareTotals(ew, &c, width)
	for i := range c.Stages {
		writeCompareStage(ew, &c, i, width)
	}
	writeCompareUnmatched(ew, &c)
	ew.line("")
	ew.line("Δ and Δ% are against run A. ▲/▼: the number went up/down; better/worse: what that means")
	ew.line("(latency and failures: lower is better; rps and 2xx: higher). Changes under 1 % are not judged.")
	if ew.err != nil {
		return fmt.Errorf("write compare: %w", ew.err)
	}
	return nil
}

// runLabel names the i-th run: A, B, C …
func runLabel(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("R%d", i+1)
}

func writeCompareRuns(ew *errWriter, runs []CompareRun, width int) {
	ew.printf("rpcstress compare: %d runs, deltas against run A\n", len(runs))
	t := newTable("llllrl")
	t.add("run", "profile", "started", "end reason", "stages", "file")
	for i, r := range runs {
		s := r.Snapshot
		t.add(runLabel(i), profileName(s.Profile), formatTime(s.StartedAt), orDash(s.EndReason),
			formatInt(int64(len(s.Stages))), r.File)
	}
	t.write(ew, "  ", width)
}

func writeCompareTotals(ew *errWriter, c *Comparison, width int) {
	sums := make([]*engine.Summary, len(c.Runs))
	var ran []string
	for i, r := range c.Runs {
		sums[i] = &r.Snapshot.Totals
		ran = append(ran, fmt.Sprintf("%s ran %s", runLabel(i), formatSeconds(roundTenth(runSeconds(r.Snapshot)))))
	}
	ew.line("")
	ew.line("Totals  (" + strings.Join(ran, ", ") + ")")
	writeCompareTable(ew, sums, width)
	if !c.samePlans() {
		ew.line("  the runs' plans differ, so their totals mix different loads: compare the stages below")
	}
}

// samePlans says whether every run's stages pair up one to one with the reference's.
func (c *Comparison) samePlans() bool {
	if len(c.Extra) > 0 {
		return false
	}
	for _, m := range c.Stages {
		for _, j := range m.Index {
			if j < 0 {
				return false
			}
		}
	}
	return true
}

func writeCompareStage(ew *errWriter, c *Comparison, i, width int) {
	m := c.Stages[i]
	sums := make([]*engine.Summary, len(c.Runs))
	var where []string
	for r, j := range m.Index {
		if j < 0 {
			where = append(where, runLabel(r)+": none")
			continue
		}
		st := &c.Runs[r].Snapshot.Stages[j]
		if !stageRan(st) {
			// The run ended first (stopped, or a partial snapshot): its zeros are not latency.
			where = append(where, fmt.Sprintf("%s: stage %d did not run", runLabel(r), j+1))
			continue
		}
		sums[r] = &st.Summary
		at := ""
		if !c.ByPosition && st.Spec.Rate != m.Rate {
			at = " (" + st.Spec.Rate.String() + ")" // close enough to pair, but not the same
		}
		where = append(where, fmt.Sprintf("%s: stage %d%s, %s", runLabel(r), j+1, at, formatSeconds(roundTenth(st.Summary.DurationS))))
	}
	title := fmt.Sprintf("Stage %d", i+1)
	if !c.ByPosition {
		title += " · " + m.Rate.String()
	}
	ew.line("")
	ew.line(truncate(title+"   "+strings.Join(where, "   "), width))
	for _, sum := range sums[1:] {
		if sum != nil {
			writeCompareTable(ew, sums, width)
			return
		}
	}
	// Nothing to compare with: A's numbers in one line, not a table of dashes.
	if sums[0] == nil {
		ew.line("  no run sent anything in this stage")
		return
	}
	ew.printf("  only in A: %s rps, p99 %s ms, limited %d, failed %d\n", formatRPS(sums[0].RPS),
		formatMs(sums[0].Latency.P99), sums[0].Limited, sums[0].Failed)
}

// writeCompareTable writes one block: a row per metric, the reference's value, then for each
// other run its value, Δ, Δ% and the verdict. A nil summary is a run without this stage.
func writeCompareTable(ew *errWriter, sums []*engine.Summary, width int) {
	align := "lr" + strings.Repeat("rrrl", len(sums)-1)
	t := newTable(align)
	head := []string{"", "A"}
	for r := 1; r < len(sums); r++ {
		head = append(head, runLabel(r), "Δ", "Δ%", "")
	}
	t.add(head...)
	for _, m := range compareMetrics {
		row := []string{m.Name, "-"}
		if sums[0] != nil {
			row[1] = m.Format(m.Value(sums[0]))
		}
		for r := 1; r < len(sums); r++ {
			if sums[r] == nil {
				row = append(row, "-", "", "", "")
				continue
			}
			v := m.Value(sums[r])
			if sums[0] == nil {
				row = append(row, m.Format(v), "", "", "")
				continue
			}
			d := compareValue(m, m.Value(sums[0]), v)
			row = append(row, m.Format(v), formatDeltaAbs(m, d), formatDeltaPct(d), verdictText(d))
		}
		t.add(row...)
	}
	t.write(ew, "  ", width)
}

func formatDeltaAbs(m compareMetric, d Delta) string {
	switch {
	case d.Abs == 0:
		return "="
	case d.Abs < 0:
		return "-" + m.Format(-d.Abs)
	}
	return "+" + m.Format(d.Abs)
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

func writeCompareUnmatched(ew *errWriter, c *Comparison) {
	var lines []string
	for i, m := range c.Stages {
		for r, j := range m.Index {
			if j < 0 {
				lines = append(lines, fmt.Sprintf("run A stage %d (%s): no stage %s in %s",
					i+1, m.Rate.String(), c.matchedBy(), runLabel(r)))
			}
		}
	}
	for _, x := range c.Extra {
		st := &c.Runs[x.Run].Snapshot.Stages[x.Stage]
		sum := &st.Summary
		there := fmt.Sprintf("  (%s there: %s rps, p99 %s ms, limited %d, failed %d)", runLabel(x.Run),
			formatRPS(sum.RPS), formatMs(sum.Latency.P99), sum.Limited, sum.Failed)
		if !stageRan(st) {
			there = fmt.Sprintf("  (%s did not run it: the run ended first)", runLabel(x.Run))
		}
		lines = append(lines, fmt.Sprintf("run %s stage %d (%s): no stage %s in A", runLabel(x.Run), x.Stage+1,
			st.Spec.Rate.String(), c.matchedBy()), there)
	}
	if len(lines) == 0 {
		return
	}
	ew.line("")
	if c.ByPosition {
		ew.line("Not matched (closed-loop runs have no rate: stages pair by position)")
	} else {
		ew.line("Not matched (stages pair by planned rate, within 1 %)")
	}
	for _, l := range lines {
		ew.line("  " + l)
	}
}

// stageRan says whether anything was scheduled in a stage: a run that ended early (stopped, cut
// by --requests, or a partial snapshot) lists the stages it never reached with zeros, which must
// not read as a 0 ms latency.
func stageRan(st *engine.StageStats) bool {
	return st.Summary.Scheduled > 0 || st.Summary.Completed > 0
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
