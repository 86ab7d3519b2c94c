package tui

import (
	"math"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// numWidth is the width of a number column in the dashboard's tables.
const numWidth = 8

// latencyPane shows latency percentiles (from the intended send time) for the last second and
// the current stage, and on request (l) a compact histogram of the stage.
type latencyPane struct {
	paneBase
	// bars is the user's choice (l) to show the histogram; until there is one, it shows
	// when there is room (the wide layout).
	bars *bool
}

var latencyColumns = []string{"p50", "p90", "p95", "p99", "p99.9", "max"}

func (p *latencyPane) toggle() {
	show := !p.showBars()
	p.bars = &show
}

func (p *latencyPane) showBars() bool {
	if p.bars != nil {
		return *p.bars
	}
	return p.wide
}

// Lines is the least the pane needs (its table) and the most it uses (the bars too, when shown).
func (p *latencyPane) Lines() (least, most int) {
	least = p.titleLines() + len(p.tableRows())
	most = least
	if p.showBars() {
		most += 1 + p.barCount()
	}
	if p.bars != nil && *p.bars {
		least = most // asked for with l: the bars come before the panes shown only with room
	}
	return least, most
}

func (p *latencyPane) View() string {
	s := p.c.styles
	lines := append(p.title("Latency (ms, from intended send)", ""), p.tableRows()...)
	// The bars come whole or not at all: half a histogram would read as one.
	if _, most := p.Lines(); p.showBars() && most <= p.height {
		title := "stage latency by percentile (ms)"
		if len(p.c.st.Histogram) > 0 {
			title = "stage latency histogram (ms)"
		}
		lines = append(lines, s.Muted.Render(title))
		lines = append(lines, p.barRows()...)
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// tableRows is the percentile table: a header, the last second, the stage, and with room the
// whole run and the stage's successful answers alone (fast 429s make a node look fast). Its
// columns keep the dashboard's grid when there is room and close up in a narrow box.
func (p *latencyPane) tableRows() []string {
	st := p.c.st
	last := st.Last.Latency
	type row struct {
		label string
		cells []string
	}
	rows := []row{
		{"last 1s", latencyCells(st.Last.RPS > 0, last.P50, last.P90, last.P95, last.P99, last.P999, last.Max)},
		{"stage", percentileCells(&st.Current.Latency, st.Current.Completed > 0)},
	}
	if p.wide {
		rows = append(rows, row{"run", percentileCells(&st.Total.Latency, st.Total.Completed > 0)})
		if ok, has := st.Current.LatencyByOutcome["ok"]; has && st.Current.OK > 0 {
			rows = append(rows, row{"stage ok", percentileCells(&ok, true)})
		}
	}
	// In a narrow pane p95 gives way first, then p99.9, p90 and max; p50 and p99 stay.
	drops := []int{0, 3, 1, 0, 2, 4}
	cols := make([]column, len(latencyColumns))
	for i, c := range latencyColumns {
		cols[i] = column{head: c, drop: drops[i]}
		for _, r := range rows {
			cols[i].cells = append(cols[i].cells, r.cells[i])
		}
	}
	widths := fitColumns(cols, p.width-labelWidth)
	out := []string{p.c.label("latency", labelWidth) + p.c.styles.Label.Render(gridRow(latencyColumns, widths))}
	for _, r := range rows {
		out = append(out, p.c.label("  "+r.label, labelWidth)+gridRow(r.cells, widths))
	}
	return out
}

func percentileCells(l *engine.Percentiles, has bool) []string {
	return latencyCells(has, l.P50, l.P90, l.P95, l.P99, l.P999, l.Max)
}

// latencyCells writes a row's figures; a negative value is a figure the row does not have.
func latencyCells(has bool, values ...float64) []string {
	cells := make([]string, len(values))
	for i, v := range values {
		cells[i] = "-"
		if has && v >= 0 {
			cells[i] = textfmt.Ms(v)
		}
	}
	return cells
}

// barCount is how many rows barRows draws, without drawing them (the layout asks every frame).
func (p *latencyPane) barCount() int {
	st := p.c.st
	switch {
	case len(st.Histogram) > 0:
		return len(st.Histogram)
	case st.Current.Completed == 0:
		return 1
	}
	return len(latencyColumns)
}

// barRows draws the stage's latency: the engine's buckets when it publishes them, otherwise its
// percentiles as bars, so the shape of the tail shows at a glance.
func (p *latencyPane) barRows() []string {
	st, s := p.c.st, p.c.styles
	if len(st.Histogram) > 0 {
		return p.bucketRows(st.Histogram)
	}
	l := &st.Current.Latency
	if st.Current.Completed == 0 {
		return []string{"  no answers in this stage yet"}
	}
	values := []float64{l.P50, l.P90, l.P95, l.P99, l.P999, l.Max}
	barWidth := p.width - labelWidth - numWidth - 1
	rows := make([]string, len(values))
	for i, v := range values {
		rows[i] = p.c.label("  "+latencyColumns[i], labelWidth) + padLeft(textfmt.Ms(v), numWidth) + " " +
			s.Bar.Render(hbar(v, l.Max, barWidth))
	}
	return rows
}

// bucketRows draws one bar per histogram bucket: "1–2  ████  1234  12.3%".
func (p *latencyPane) bucketRows(buckets []engine.Bucket) []string {
	s := p.c.styles
	var total, top int64
	for _, b := range buckets {
		total += b.Count
		top = max(top, b.Count)
	}
	rangeWidth := 0
	ranges := make([]string, len(buckets))
	for i, b := range buckets {
		ranges[i] = bucketRange(b)
		rangeWidth = max(rangeWidth, cellWidth(ranges[i]))
	}
	barWidth := p.width - 2 - rangeWidth - 1 - numWidth - numWidth - 1
	rows := make([]string, len(buckets))
	for i, b := range buckets {
		bar := padRight(hbar(float64(b.Count), float64(top), barWidth), max(barWidth, 0))
		rows[i] = "  " + padLeft(ranges[i], rangeWidth) + " " + s.Bar.Render(bar) +
			padLeft(textfmt.Int(b.Count), numWidth) + padLeft(textfmt.Pct(b.Count, total), numWidth)
	}
	return rows
}

// bucketRange names a bucket in milliseconds: "0.5–1", "10–20", and "≥ 10000" for the open
// last one (Bucket.To < 0). The engine's edges are a 1-2-5 series, so short forms read best.
func bucketRange(b engine.Bucket) string {
	if b.To < 0 {
		return "≥ " + formatEdge(b.From)
	}
	return formatEdge(b.From) + "–" + formatEdge(b.To)
}

// formatEdge writes a bucket edge in milliseconds without trailing zeros, to the microsecond.
func formatEdge(ms float64) string {
	return strconv.FormatFloat(math.Round(ms*1000)/1000, 'f', -1, 64)
}
