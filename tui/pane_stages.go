package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// stagesPane lists the plan's stages with what each achieved: during a limit sweep the line
// where the limited share jumps is the answer. Shown in the wide layout only.
type stagesPane struct {
	c             *common
	width, height int
}

var stageColumns = []string{"rate", "planned", "ran", "rps", "p50", "p99", "limited", "failed"}

func (p *stagesPane) SetSize(width, height int) { p.width, p.height = width, height }

func (p *stagesPane) View() string {
	st, s := p.c.st, p.c.styles
	head := p.c.styles.Label.Render("     #")
	for _, c := range stageColumns {
		head += s.Label.Render(padLeft(c, numWidth))
	}
	lines := []string{s.Section.Render("Stages") + s.Muted.Render("  (latency in ms)"), head}
	if len(st.Stages) == 0 {
		lines = append(lines, s.Muted.Render("  no stages reported yet"))
	}
	// Keep the current stage in view in a long plan: start so that it sits in the window.
	rows := max(p.height-len(lines), 1)
	from := min(max(p.c.plan.Stage-rows/2, 0), max(len(st.Stages)-rows, 0))
	for i := from; i < len(st.Stages) && len(lines) < p.height; i++ {
		lines = append(lines, p.row(&st.Stages[i]))
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// row writes one stage. The current stage reads the live stage summary (fresher than the
// per-second stage list) and is marked with ▶ in bold, not by colour alone.
func (p *stagesPane) row(ss *engine.StageStats) string {
	st, s := p.c.st, p.c.styles
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
		cells[2] = formatSeconds(float64(int64(sum.DurationS)))
		cells[3] = formatRPS(sum.RPS)
		if sum.Completed > 0 {
			cells[4], cells[5] = formatMs(sum.Latency.P50), formatMs(sum.Latency.P99)
			cells[6] = formatPct(sum.Limited, sum.Completed)
		}
		cells[7] = formatInt(sum.Failed)
	}
	mark := "   "
	if current {
		mark = " ▶ "
	}
	b := strings.Builder{}
	b.WriteString(mark + padLeft(formatInt(int64(ss.Index+1)), 3))
	for _, c := range cells {
		b.WriteString(padLeft(c, numWidth))
	}
	if current {
		return s.Label.Render(b.String())
	}
	return b.String()
}
