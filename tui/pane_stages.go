package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// stagesPane lists the plan's stages with what each achieved: during a limit sweep the line
// where the limited share jumps is the answer. Boxed with a title in the wide layout; in the
// compact one it is shown when rows are to spare.
type stagesPane struct {
	paneBase
}

// stageColumns are the stage table's columns after the stage number, with how readily each
// gives way on a narrow terminal (see column.drop).
var stageColumns = []struct {
	head string
	drop int
}{{"rate", 0}, {"planned", 1}, {"ran", 4}, {"rps", 0}, {"p50", 2}, {"p99", 0}, {"limited", 5}, {"failed", 3}}

// Lines is the least worth showing (the head and the current stage) and all the pane can use.
func (p *stagesPane) Lines() (least, most int) {
	top := 1 + p.titleLines() // the column heads, under the title
	return top + 1, top + max(len(p.c.st.Stages), 1)
}

// leadWidth is the width of the stage number column: the label column in the compact layout,
// so the numbers line up with the panes above.
func (p *stagesPane) leadWidth() int {
	if p.wide {
		return 6
	}
	return labelWidth
}

func (p *stagesPane) View() string {
	st, s := p.c.st, p.c.styles
	note := "  (latency in ms)"
	if targets := p.c.sideBySide(); targets != nil {
		// The stages' figures are the first target's; the targets' table sets them all side
		// by side for the stage that runs.
		note = "  (" + targetLabel(0, targets[0], maxTargetHead) + "; latency in ms)"
	}
	lines := p.title("Stages", note)
	// Keep the current stage in view in a long plan: start so that it sits in the window.
	rows := max(p.height-len(lines)-1, 1)
	from := min(max(p.c.plan.Stage-rows/2, 0), max(len(st.Stages)-rows, 0))
	shown := st.Stages[from:min(from+rows, len(st.Stages))]
	cols := make([]column, len(stageColumns), len(stageColumns)+2)
	for i, c := range stageColumns {
		cols[i] = column{head: c.head, drop: c.drop}
	}
	// With expect rules, the answers that broke them (among failed); with costs, the cost
	// units answered ok per second. Each gives way before the figures every run has.
	checks, costs := st.Total.Expect != nil, st.Total.Cost != nil
	if checks {
		cols = append(cols, column{head: "invalid", drop: 2})
	}
	if costs {
		cols = append(cols, column{head: "cost/s", drop: 1})
	}
	cells := make([][]string, len(shown))
	for i := range shown {
		cells[i] = p.cells(&shown[i], checks, costs)
		for j := range cols {
			cols[j].cells = append(cols[j].cells, cells[i][j])
		}
	}
	lead := p.leadWidth()
	widths := fitColumns(cols, p.width-lead)
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	headLead := padLeft("#", lead)
	if !p.wide {
		headLead = padRight("stage", lead)
	}
	lines = append(lines, s.Label.Render(headLead+gridRow(heads, widths)))
	if len(st.Stages) == 0 {
		lines = append(lines, s.Muted.Render("  no stages reported yet"))
	}
	for i := range shown {
		lines = append(lines, p.row(&shown[i], cells[i], widths))
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// cells are one stage's figures. The current stage reads the live stage summary (fresher than
// the per-second stage list).
func (p *stagesPane) cells(ss *engine.StageStats, checks, costs bool) []string {
	st := p.c.st
	current := ss.Index == p.c.plan.Stage
	sum := &ss.Summary
	if current {
		sum = &st.Current
	}
	rate := ss.Spec.Rate.String()
	if st.Mode == engine.ModeClosed {
		rate = "-"
	}
	planned := "open"
	if ss.Spec.Duration > 0 {
		planned = ss.Spec.Duration.String()
	}
	cells := []string{rate, planned, "-", "-", "-", "-", "-", "-"}
	if sum.Completed > 0 || current {
		cells[2] = formatStageTime(sum.DurationS)
		cells[3] = textfmt.RPS(sum.RPS)
		if sum.Completed > 0 {
			cells[4], cells[5] = textfmt.Ms(sum.Latency.P50), textfmt.Ms(sum.Latency.P99)
			cells[6] = textfmt.Pct(sum.Limited, sum.Completed)
		}
		cells[7] = textfmt.Int(sum.Failed)
	}
	ran := sum.Completed > 0 || current
	if checks {
		cells = append(cells, "-")
		if ran && sum.Expect != nil {
			cells[len(cells)-1] = textfmt.Int(sum.Expect.Invalid)
		}
	}
	if costs {
		cells = append(cells, "-")
		if ran && sum.Cost != nil {
			cells[len(cells)-1] = textfmt.RPS(sum.Cost.AcceptedRate)
		}
	}
	return cells
}

// row writes one stage; the current one is marked with ▶ in bold, not by colour alone.
func (p *stagesPane) row(ss *engine.StageStats, cells []string, widths []int) string {
	current := ss.Index == p.c.plan.Stage
	mark := "   "
	if current {
		mark = " ▶ "
	}
	line := padRight(mark+padLeft(textfmt.Int(int64(ss.Index+1)), 3), p.leadWidth()) + gridRow(cells, widths)
	if current {
		return p.c.styles.Label.Render(line)
	}
	return line
}

// formatStageTime writes the time a stage was active: tenths of a second while it is short (a
// stage visited for 1.8 s reads 1.8s, not 1s), whole seconds beyond a minute.
func formatStageTime(s float64) string {
	if s < 60 {
		return textfmt.Seconds(float64(int64(s*10)) / 10)
	}
	return textfmt.Seconds(float64(int64(s)))
}
