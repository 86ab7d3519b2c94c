package tui

import (
	"math"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// numWidth is the width of a number column in the dashboard's tables.
const numWidth = 8

// latencyPane shows latency percentiles (from the intended send time) for the last second and
// the current stage, and on request (l) a compact histogram of the stage.
type latencyPane struct {
	c             *common
	width, height int
	wide          bool
	// bars is the user's choice (l) to show the histogram; until there is one, it shows
	// when there is room (the wide layout).
	bars *bool
}

var latencyColumns = []string{"p50", "p90", "p95", "p99", "p99.9", "max"}

func (p *latencyPane) SetSize(width, height int) { p.width, p.height = width, height }

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

// Lines is the height of the whole pane: the table, and the bars when shown.
func (p *latencyPane) Lines() int {
	n := len(p.tableRows())
	if p.wide {
		n++
	}
	if p.showBars() {
		n += 1 + len(p.barRows())
	}
	return n
}

func (p *latencyPane) View() string {
	s := p.c.styles
	var lines []string
	if p.wide {
		lines = append(lines, s.Section.Render("Latency (ms, from intended send)"))
	}
	lines = append(lines, p.tableRows()...)
	if p.showBars() {
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
// whole run and the stage's successful answers alone (fast 429s make a node look fast).
func (p *latencyPane) tableRows() []string {
	st := p.c.st
	head := p.c.label("latency", labelWidth)
	for _, c := range latencyColumns {
		head += p.c.styles.Label.Render(padLeft(c, numWidth))
	}
	last := st.Last.Latency
	rows := []string{
		head,
		p.row("last 1s", st.Last.RPS > 0, last.P50, last.P90, last.P95, last.P99, last.P999, last.Max),
		p.percentiles("stage", &st.Current.Latency, st.Current.Completed > 0),
	}
	if p.wide {
		rows = append(rows, p.percentiles("run", &st.Total.Latency, st.Total.Completed > 0))
		if ok, has := st.Current.LatencyByOutcome["ok"]; has && st.Current.OK > 0 {
			rows = append(rows, p.percentiles("stage ok", &ok, true))
		}
	}
	return rows
}

func (p *latencyPane) percentiles(label string, l *engine.Percentiles, has bool) string {
	return p.row(label, has, l.P50, l.P90, l.P95, l.P99, l.P999, l.Max)
}

// row writes one line of the table; a negative value is a figure the row does not have.
func (p *latencyPane) row(label string, has bool, values ...float64) string {
	b := strings.Builder{}
	b.WriteString(p.c.label("  "+label, labelWidth))
	for _, v := range values {
		cell := "-"
		if has && v >= 0 {
			cell = formatMs(v)
		}
		b.WriteString(padLeft(cell, numWidth))
	}
	return b.String()
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
		rows[i] = p.c.label("  "+latencyColumns[i], labelWidth) + padLeft(formatMs(v), numWidth) + " " +
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
			padLeft(formatInt(b.Count), numWidth) + padLeft(formatPct(b.Count, total), numWidth)
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
