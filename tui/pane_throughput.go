package tui

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// labelWidth is the width of the row labels on the left of the compact panes.
const labelWidth = 10

// throughputPane shows the target rate against what was sent and what came back ok in the last
// second, the generator's health (saturation, dropped requests), a loud line when most answers
// failed, and a chart of requests per second.
type throughputPane struct {
	paneBase
	chartRows int // height of the chart; 1 in the compact layout
}

// Lines is the least the pane needs (its figures and a one-row chart) and the most it uses
// (its full chart), at its width.
// With several targets the chart is a row per target (in the wide layout only: at 80x24 the
// rows go to the targets' table).
func (p *throughputPane) Lines() (least, most int) {
	n := len(p.head())
	if targets := p.c.sideBySide(); targets != nil {
		if !p.wide {
			return n, n
		}
		return n, n + min(len(targets), maxTargetColumns)
	}
	return n + 1, n + max(p.chartRows, 1)
}

func (p *throughputPane) View() string {
	lines := p.head()
	if targets := p.c.sideBySide(); targets != nil {
		lines = append(lines, p.targetCharts(targets, p.height-len(lines))...)
		return strings.Join(clip(lines, p.height), "\n")
	}
	chartRows := max(p.height-len(lines), 1)
	lines = append(lines, p.chart(p.c.st.Timeline, chartRows)...)
	return strings.Join(clip(lines, p.height), "\n")
}

// head is everything above the chart: the title, the rate figures (wrapped to the width, never
// cut), and the alarms.
func (p *throughputPane) head() []string {
	lines := append(p.title("Throughput", ""), wrapIndented(p.rateParts(), "  ", labelWidth, p.width)...)
	if parts := p.costParts(); parts != nil {
		lines = append(lines, wrapIndented(parts, "  ", labelWidth, p.width)...)
	}
	lines = append(lines, p.failingLines()...)
	if t := &p.c.st.Tester; t.Behind {
		lines = append(lines, wrapIndented(testerParts(t, p.c.styles, p.width-labelWidth), " ", labelWidth, p.width)...)
	}
	return lines
}

// testerParts is the warning that the tester itself sent late in the last second, so that much
// of the latency shown is its own: by how much, and what to do, which depends on whose the CPU
// was.
func testerParts(t *engine.TesterLoad, s *Styles, width int) []string {
	parts := []string{strings.Repeat(" ", labelWidth-1), // the first line's indent, with the " " after it
		s.Warn.Render("! TESTER " + textfmt.Ms(float64(t.Lag.Microseconds())/1000) + " ms LATE"), "(part of the latency):"}
	used := fmt.Sprintf("it used %s of %d cores;", textfmt.Sig(t.CPU, 2, 2), t.Cores)
	advice := "free the CPU others hold" // the tester was waiting for a CPU others held
	switch {
	case t.CPU < 0 || t.Cores <= 0:
		return append(parts, "free the CPU or lower the rate")
	case t.CPU >= 0.75*float64(t.Cores):
		advice = "lower the rate or --shard" // the tester is the load: it needs more machine
	}
	// The figure and what to do read best on one line; split only when they do not fit one.
	if cellWidth(used)+1+cellWidth(advice) <= width {
		return append(parts, used+" "+advice)
	}
	return append(parts, used, advice)
}

// rateParts: "rate  target 200/s  sent 199.0/s  ok 122.0/s  inflight 3  dropped 12". Sent is
// the tester's side, ok the target's: a dead target sends at the full rate and gets nothing
// ok back, which "achieved 100 rps" of refused connections hid.
func (p *throughputPane) rateParts() []string {
	st, s := p.c.st, p.c.styles
	parts := []string{p.c.label("rate", labelWidth-2)}
	if st.Mode == engine.ModeClosed {
		parts = append(parts, "closed loop: connections set the pace")
	} else {
		parts = append(parts, "target "+s.Value.Render(p.c.plan.TargetRate.String()))
	}
	if targets := p.c.sideBySide(); targets != nil {
		// Each target's own figures are in its column of the targets' table.
		return append(parts, "to each of "+textfmt.Int(int64(len(targets)))+" targets")
	}
	if len(st.Timeline) == 0 {
		// No second has closed yet: "0.0/s" would read as a target that answers nothing.
		parts = append(parts, "sent -", "ok - "+s.Muted.Render("(first second)"))
	} else {
		parts = append(parts, "sent "+textfmt.RPS(st.Last.Sent)+"/s",
			"ok "+s.Value.Render(textfmt.RPS(okRate(&st.Last))+"/s"))
	}
	parts = append(parts, "inflight "+textfmt.Int(st.Total.Inflight))
	dropped := "dropped " + textfmt.Int(st.Total.Dropped)
	if st.Total.Dropped > 0 {
		dropped = s.Warn.Render(dropped)
	}
	return append(parts, dropped)
}

// costParts: "cost  sent 3200/s  ok 2950/s", the load in the provider's units (compute
// units, credits) sent and answered ok in the last second, beside the requests' rate; nil
// when the profile sets no cost.
func (p *throughputPane) costParts() []string {
	st, s := p.c.st, p.c.styles
	if st.Total.Cost == nil || p.c.sideBySide() != nil {
		return nil // several targets: the report has each one's costs
	}
	parts := []string{p.c.label("cost", labelWidth-2)}
	if len(st.Timeline) == 0 {
		return append(parts, "sent -", "ok -")
	}
	return append(parts, "sent "+textfmt.RPS(st.Last.CostOffered)+"/s",
		"ok "+s.Value.Render(textfmt.RPS(st.Last.CostAccepted)+"/s"))
}

// okRate is the successful answers of a second, per second (a partial last second's answers
// are scaled like its rps).
func okRate(r *engine.Row) float64 {
	n := r.OK + r.Limited + r.Failed
	if n == 0 {
		return 0
	}
	return r.RPS * float64(r.OK) / float64(n)
}

// failingLines are the alarms shown when most of the last second's answers failed: a target
// that is down, refusing or erroring must look it, not hide behind a full rate of fast
// failures. With several targets, one for each failing target, named.
func (p *throughputPane) failingLines() []string {
	targets := p.c.sideBySide()
	if targets == nil {
		if alarm := p.failingLine("", &p.c.st.Last); alarm != "" {
			return []string{alarm}
		}
		return nil
	}
	var lines []string
	for i, t := range targets {
		if alarm := p.failingLine(" "+targetLabel(i, t, maxTargetHead), &t.Last); alarm != "" {
			lines = append(lines, alarm)
		}
	}
	return lines
}

// failingLine is the alarm for one target's last second, "" when most of it did not fail.
func (p *throughputPane) failingLine(who string, last *engine.Row) string {
	n := last.OK + last.Limited + last.Failed
	if n == 0 || 2*last.Failed <= n {
		return ""
	}
	text := fmt.Sprintf("! FAILING%s: %s of the last second failed", who, textfmt.Pct(last.Failed, n))
	if cause, count := topCause(last); cause != "" {
		text += fmt.Sprintf(" (%s %d)", cause, count)
	}
	return p.c.styles.Bad.Render(textfmt.Truncate(text, p.width))
}

// topCause names the commonest failure of a second: a transport error class, an HTTP status
// that is neither 2xx nor 429, or a JSON-RPC error code.
func topCause(r *engine.Row) (string, int64) {
	cause, most := "", int64(0)
	consider := func(name string, n int64) {
		if n > most || n == most && name < cause {
			cause, most = name, n
		}
	}
	for class, n := range r.Errors {
		consider(class, n)
	}
	for code, n := range r.Status {
		if code[0] != '2' && code != "429" {
			consider("HTTP "+code, n)
		}
	}
	for code, n := range r.RPCErrors {
		consider("rpc "+code, n)
	}
	consider("invalid", r.Invalid) // results that broke an expect rule
	return cause, most
}

// chart draws requests per second, one column a second, scaled so the highest of rate and
// target in view fills it: a node that cannot keep up shows as a chart below the top.
func (p *throughputPane) chart(rows []engine.Row, height int) []string {
	s := p.c.styles
	legendWidth := 14
	width := p.width - labelWidth - 1 - legendWidth
	if width < 8 {
		return nil
	}
	if len(rows) > width {
		rows = rows[len(rows)-width:]
	}
	values := make([]float64, len(rows))
	top := 0.0
	for i, r := range rows {
		values[i] = r.RPS
		top = max(top, r.RPS, r.TargetRate)
	}
	chart := sparkline(values, width, height, top)
	out := make([]string, len(chart))
	for i, line := range chart {
		label, right := "", ""
		if i == len(chart)-1 {
			label = "rps"
		}
		switch {
		case i == 0:
			right = "top " + textfmt.Sig(top, 3, 1) + "/s"
		case i == len(chart)-1:
			right = fmt.Sprintf("last %ds", len(rows))
		}
		out[i] = p.c.label(label, labelWidth) + s.Spark.Render(line) + " " + s.Muted.Render(right)
	}
	return out
}

// targetCharts draws the answers ok per second of each target on a row of its own, all on
// one scale (the highest rate or target in view), so a target falling behind or rate-limited
// shows as a lower row; at most rows of them.
func (p *throughputPane) targetCharts(targets []*engine.Stats, rows int) []string {
	s := p.c.styles
	legendWidth := 14
	width := p.width - labelWidth - 1 - legendWidth
	if width < 8 || rows <= 0 {
		return nil
	}
	targets = targets[:min(len(targets), maxTargetColumns, rows)]
	top := 0.0
	for _, t := range targets {
		for _, r := range t.Timeline[max(len(t.Timeline)-width, 0):] {
			top = max(top, okRate(&r), r.TargetRate)
		}
	}
	out := make([]string, len(targets))
	for i, t := range targets {
		rowsInView := t.Timeline[max(len(t.Timeline)-width, 0):]
		values := make([]float64, len(rowsInView))
		for j := range rowsInView {
			values[j] = okRate(&rowsInView[j])
		}
		right := ""
		if i == 0 {
			right = "top " + textfmt.Sig(top, 3, 1) + "/s ok"
		}
		out[i] = p.c.label(targetLabel(i, t, labelWidth-1), labelWidth) + s.Spark.Render(sparkline(values, width, 1, top)[0]) +
			" " + s.Muted.Render(right)
	}
	return out
}
