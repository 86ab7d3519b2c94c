package tui

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// labelWidth is the width of the row labels on the left of the compact panes.
const labelWidth = 10

// throughputPane shows the target rate against what was achieved in the last second, the
// generator's health (saturation, dropped requests), and a chart of requests per second.
type throughputPane struct {
	c             *common
	width, height int
	wide          bool // boxed, with a title
	chartRows     int  // height of the chart; 1 in the compact layout
}

func (p *throughputPane) SetSize(width, height int) { p.width, p.height = width, height }

// Lines is the height the pane needs with its chart.
func (p *throughputPane) Lines() int {
	n := 1 + max(p.chartRows, 1)
	if p.c.plan.Saturated {
		n++
	}
	if p.wide {
		n++
	}
	return n
}

func (p *throughputPane) View() string {
	st, s := p.c.st, p.c.styles
	var lines []string
	if p.wide {
		lines = append(lines, s.Section.Render("Throughput"))
	}
	lines = append(lines, p.rateLine())
	if p.c.plan.Saturated {
		lines = append(lines, strings.Repeat(" ", labelWidth)+
			s.Warn.Render("! TESTER SATURATED: the generator is behind its own schedule"))
	}
	chartRows := max(p.height-len(lines), 1)
	lines = append(lines, p.chart(st.Timeline, chartRows)...)
	return strings.Join(clip(lines, p.height), "\n")
}

// rateLine: "rate  target 200/s  achieved 198.0 rps (99%)  inflight 3  dropped 12".
func (p *throughputPane) rateLine() string {
	st, s := p.c.st, p.c.styles
	target := p.c.plan.TargetRate.PerSecond()
	parts := []string{p.c.label("rate", labelWidth-2)}
	if st.Mode == engine.ModeClosed {
		parts = append(parts, "closed loop: connections set the pace")
	} else {
		parts = append(parts, "target "+s.Value.Render(p.c.plan.TargetRate.String()))
	}
	achieved := "achieved " + s.Value.Render(formatRPS(st.Last.RPS)+" rps")
	if len(st.Timeline) == 0 {
		// No second has closed yet: "0.0 rps" would read as a target that answers nothing.
		achieved = "achieved " + s.Muted.Render("- (first second)")
	} else if target > 0 && st.Mode != engine.ModeClosed {
		achieved += " (" + formatSig(100*st.Last.RPS/target, 3, 1) + "%)"
	}
	parts = append(parts, achieved, "inflight "+formatInt(st.Total.Inflight))
	dropped := "dropped " + formatInt(st.Total.Dropped)
	if st.Total.Dropped > 0 {
		dropped = s.Warn.Render(dropped)
	}
	parts = append(parts, dropped)
	return strings.Join(parts, "  ")
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
			right = "top " + formatSig(top, 3, 1) + "/s"
		case i == len(chart)-1:
			right = fmt.Sprintf("last %ds", len(rows))
		}
		out[i] = p.c.label(label, labelWidth) + s.Spark.Render(line) + " " + s.Muted.Render(right)
	}
	return out
}
