package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"

	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// requestsPane shows the run's numbers per request of the mix: one slow or rate-limited method
// hides in the totals (seed 001 mixes getBalance and getBlocks). Shown only for a mix of two or
// more (for one, the totals are that request): boxed in the wide layout, and in the compact one
// when rows are to spare.
type requestsPane struct {
	paneBase
}

// maxRequestRows is how many requests the pane lists at most, the busiest first; the rest are
// counted on one more line.
const maxRequestRows = 6

// requestColumns are the columns after the name, with how readily each gives way.
var requestColumns = []struct {
	head string
	drop int
}{{"count", 3}, {"share", 0}, {"p50", 1}, {"p99", 0}, {"limited", 4}, {"failed", 2}}

// minName is the narrowest the name column gets before number columns are left out.
const minName = 10

// Lines is the pane's height, least and most: none for a mix of one, else a title (wide), a
// head and the rows (the least: two of them; with several targets, a row per target of one
// request and the line counting the others).
func (p *requestsPane) Lines() (least, most int) {
	n := len(p.c.st.Total.ByRequest)
	if n < 2 {
		return 0, 0
	}
	top := 1 + p.titleLines()
	group, most := p.group()
	rows := min(n, most) * group
	if n > most {
		rows++
	}
	if group > 1 {
		return top + group + 1, top + rows
	}
	return top + 2, top + rows
}

// group is how many rows a request takes (one per target shown) and how many requests are
// listed at most.
func (p *requestsPane) group() (rows, requests int) {
	targets := p.c.sideBySide()
	if targets == nil {
		return 1, maxRequestRows
	}
	rows = min(len(targets), maxTargetColumns)
	return rows, max(maxRequestRows/rows, 2)
}

// requestLine is one row of the table: the request's name (blank under the first row of a
// group), the target's label (several targets) and the figures.
type requestLine struct {
	name, target string
	cells        []string
}

func (p *requestsPane) View() string {
	s := p.c.styles
	tot := &p.c.st.Total
	lines := p.title("Requests", "  (run; latency in ms)")
	names := runtext.RequestsByCount(tot.ByRequest)
	// When the rows do not all fit, the last one says how many are left out.
	room := max(p.height-len(lines)-1, 0)
	group, most := p.group()
	shown := min(len(names), most, room/group)
	// One target: a row fewer when any is left out (the line counting them takes one). A
	// group of rows per target goes only when that line does not fit beside it.
	if shown < len(names) && shown > 0 && (group == 1 || shown*group >= room) {
		shown--
	}
	cols := p.columns()
	var rows []requestLine
	for _, name := range names[:shown] {
		rows = append(rows, p.requestLines(name, cols)...)
	}
	for _, r := range rows {
		for j := range cols {
			cols[j].cells = append(cols[j].cells, r.cells[j])
		}
	}
	targetWidth := 0
	if p.c.sideBySide() != nil {
		for _, r := range rows {
			targetWidth = max(targetWidth, cellWidth(r.target)+1)
		}
	}
	// The names get their whole width when the numbers fit beside it, closed up if need be;
	// else the names keep minName and the number columns shrink, then the least needed go.
	widths := fitColumns(cols, p.width-minName-targetWidth)
	longest := 0
	for _, name := range names[:shown] {
		longest = max(longest, cellWidth(safetext.Line(name)))
	}
	if whole := fitColumns(cols, p.width-targetWidth-max(longest+1, minName)); dropped(whole) == dropped(widths) {
		widths = whole
	}
	nameWidth := max(p.width-targetWidth-sum(widths), minName)
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	head := padRight("request", nameWidth)
	if targetWidth > 0 {
		head += padRight("target", targetWidth)
	}
	lines = append(lines, s.Label.Render(head+gridRow(heads, widths)))
	for _, r := range rows {
		line := padRight(textfmt.Truncate(safetext.Line(r.name), nameWidth-1), nameWidth)
		if targetWidth > 0 {
			line += padRight(r.target, targetWidth)
		}
		lines = append(lines, line+gridRow(r.cells, widths))
	}
	if left := len(names) - shown; left > 0 && room > 0 {
		lines = append(lines, s.Muted.Render(textfmt.Truncate("+"+textfmt.Int(int64(left))+" more (rpcstress report lists them all)", p.width)))
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// columns are the table's number columns: the fixed ones, then the calls failed of a run of
// JSON-RPC calls (of a batch, many per request), the first to give way after "share", and
// with expect rules the requests whose answers broke one (among failed).
func (p *requestsPane) columns() []column {
	tot := &p.c.st.Total
	cols := make([]column, len(requestColumns), len(requestColumns)+2)
	for i, c := range requestColumns {
		cols[i] = column{head: c.head, drop: c.drop}
	}
	if tot.Calls.Sent > 0 {
		cols = append(cols, column{head: "c.fail", drop: 5})
	}
	if tot.Expect != nil {
		cols = append(cols, column{head: "invalid", drop: 2})
	}
	return cols
}

// requestLines are the rows of one request: its row of the run, or with several targets a
// row per target shown, each with its own figures and its share of that target's answers.
func (p *requestsPane) requestLines(name string, cols []column) []requestLine {
	targets := p.c.sideBySide()
	if targets == nil {
		return []requestLine{{name: name, cells: requestCells(&p.c.st.Total, name, cols)}}
	}
	var out []requestLine
	for i, t := range targets[:min(len(targets), maxTargetColumns)] {
		r := requestLine{target: targetLabel(i, t, maxTargetHead), cells: requestCells(&t.Total, name, cols)}
		if i == 0 {
			r.name = name
		}
		out = append(out, r)
	}
	return out
}

// requestCells are one request's figures in tot, a cell per column of cols.
func requestCells(tot *engine.Summary, name string, cols []column) []string {
	r := tot.ByRequest[name]
	cells := []string{textfmt.Int(r.Completed), textfmt.Pct(r.Completed, tot.Completed), "-", "-",
		textfmt.Pct(r.Limited, r.Completed), textfmt.Int(r.Failed)}
	if r.Completed > 0 {
		cells[2], cells[3] = textfmt.Ms(r.Latency.P50), textfmt.Ms(r.Latency.P99)
	}
	for _, c := range cols[len(requestColumns):] {
		switch c.head {
		case "c.fail":
			cells = append(cells, textfmt.Int(r.Calls.Failed))
		case "invalid":
			cells = append(cells, "-") // a request without rules
			if r.Expect != nil {
				cells[len(cells)-1] = textfmt.Int(r.Expect.Invalid)
			}
		}
	}
	return cells
}
