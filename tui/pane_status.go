package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// statusPane shows the HTTP status codes of the run (count, share, per second now), with 429
// marked, and the rate-limited share of answers over time.
type statusPane struct {
	paneBase
	maxCodes int // codes shown at most; the commonest win
}

// limitedChartRows is the height of the rate-limited chart in the wide layout.
const limitedChartRows = 3

// Lines is the least the pane needs (its head and two codes, the chart's top and bottom in the
// wide layout) and the most it uses (its codes up to maxCodes, and the full chart).
func (p *statusPane) Lines() (least, most int) {
	codes := len(p.c.st.Total.Status)
	if _, ok := p.c.st.Total.Status["429"]; !ok {
		codes++
	}
	least, most = 1+min(codes, 2), 1+min(codes, p.maxCodes)
	if p.wide {
		least, most = least+1+2, most+1+limitedChartRows
	}
	return least, most
}

func (p *statusPane) View() string {
	st := p.c.st
	lines := p.title("Status codes", "  (run; /s is the last second)")
	head := p.c.label("status", labelWidth) + p.c.styles.Label.Render(
		padLeft("count", numWidth)+padLeft("%", numWidth)+padLeft("/s", numWidth))
	if !p.wide {
		head = spread(head, p.limitedSpark(p.width-cellWidth(head)-2), p.width)
	}
	lines = append(lines, head)
	// In the wide layout the chart keeps two rows (its top and its bottom with the share now);
	// the codes take the rest.
	room := p.height - len(lines)
	if p.wide {
		room -= 2
	}
	for _, code := range p.shownCodes(room) {
		lines = append(lines, p.codeRow(code))
	}
	if p.wide {
		lines = append(lines, p.limitedChart(st.Timeline, max(p.height-len(lines), 1))...)
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// shownCodes are the codes that fit, the commonest first chosen, then in numeric order. 429 is
// always there, at zero until the limiter answers: it is the code this tool is about, and its
// row should not appear out of nowhere in the middle of a run.
func (p *statusPane) shownCodes(room int) []string {
	codes := textfmt.SortedByCount(p.c.st.Total.Status)
	if _, ok := p.c.st.Total.Status["429"]; !ok {
		codes = append([]string{"429"}, codes...)
	}
	if p.maxCodes > 0 {
		codes = codes[:min(len(codes), p.maxCodes, max(room, 1))]
	}
	sort.Slice(codes, func(i, j int) bool {
		a, _ := strconv.Atoi(codes[i])
		b, _ := strconv.Atoi(codes[j])
		return a < b
	})
	return codes
}

// codeRow: "  429   780  31.4%  78  rate-limited". 429 is shown in reverse and bold as well as
// named, so it stands out with or without colour.
func (p *statusPane) codeRow(code string) string {
	st, s := p.c.st, p.c.styles
	n := st.Total.Status[code]
	cell := p.c.label("  "+code, labelWidth)
	note := ""
	switch {
	case code == "429":
		cell = "  " + s.Limited.Render(code) + strings.Repeat(" ", max(labelWidth-2-len(code), 0))
		note = "  " + s.Limited.Render("rate-limited")
	case strings.HasPrefix(code, "5"):
		cell = "  " + s.Bad.Render(padRight(code, labelWidth-2))
	}
	return cell + padLeft(textfmt.Int(n), numWidth) + padLeft(textfmt.Pct(n, st.Total.Completed), numWidth) +
		padLeft(textfmt.Int(st.Last.Status[code]), numWidth) + note
}

// limitedShare is the share of a second's answers that were rate-limited.
func limitedShare(r *engine.Row) float64 {
	n := r.OK + r.Limited + r.Failed
	if n == 0 {
		return 0
	}
	return float64(r.Limited) / float64(n)
}

// limitedSpark is the one-line form: "limited ▁▂▅▇ 39.2%", at most width cells.
func (p *statusPane) limitedSpark(width int) string {
	st, s := p.c.st, p.c.styles
	now := formatShare(limitedShare(&st.Last))
	chartWidth := min(width-cellWidth("limited ")-1-cellWidth(now), 60)
	if chartWidth < 6 {
		return ""
	}
	spark := sparkline(limitedValues(st.Timeline, chartWidth), chartWidth, 1, 1)[0]
	return s.Muted.Render("limited ") + s.Spark429.Render(spark) + " " + now
}

// limitedChart is the taller form, scaled so that the top is 100% rate-limited.
func (p *statusPane) limitedChart(rows []engine.Row, height int) []string {
	s := p.c.styles
	width := p.width - labelWidth - 1 - 12
	if width < 8 {
		return nil
	}
	chart := sparkline(limitedValues(rows, width), width, height, 1)
	out := make([]string, len(chart))
	for i, line := range chart {
		label, right := "", ""
		switch {
		case i == 0:
			label, right = "limited", "100%"
		case i == len(chart)-1:
			label, right = "share", "now "+formatShare(limitedShare(&p.c.st.Last))
		}
		out[i] = p.c.label(label, labelWidth) + s.Spark429.Render(line) + " " + s.Muted.Render(right)
	}
	return out
}

func limitedValues(rows []engine.Row, width int) []float64 {
	if len(rows) > width {
		rows = rows[len(rows)-width:]
	}
	v := make([]float64, len(rows))
	for i := range rows {
		v[i] = limitedShare(&rows[i])
	}
	return v
}

func formatShare(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }
