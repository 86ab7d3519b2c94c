package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// requestsPane shows the run's numbers per request of the mix: one slow or rate-limited method
// hides in the totals (seed 001 mixes getBalance and getBlocks). Shown in the wide layout only,
// and only for a mix of two or more: for one, the totals are that request.
type requestsPane struct {
	c             *common
	width, height int
}

// maxRequestRows is how many requests the pane lists at most, the busiest first; the rest are
// counted on one more line.
const maxRequestRows = 6

var requestColumns = []string{"count", "share", "p50", "p99", "limited", "failed"}

// callColumns is requestColumns for a run of JSON-RPC calls: the calls failed (of a batch,
// many per request) come last.
var callColumns = append(append([]string(nil), requestColumns...), "c.fail")

// shortColumn is a column's header where its full name would touch the column before.
var shortColumn = map[string]string{"count": "n", "share": "%", "limited": "lim", "failed": "fail", "c.fail": "cfail"}

func (p *requestsPane) SetSize(width, height int) { p.width, p.height = width, height }

// Lines is the pane's height: none for a mix of one, else a title, a head and the rows.
func (p *requestsPane) Lines() int {
	n := len(p.c.st.Total.ByRequest)
	if n < 2 {
		return 0
	}
	rows := min(n, maxRequestRows)
	if n > maxRequestRows {
		rows++
	}
	return 2 + rows
}

func (p *requestsPane) View() string {
	s := p.c.styles
	tot := &p.c.st.Total
	columns, minCol := requestColumns, lenRunes("limited")
	if tot.Calls.Sent > 0 {
		columns, minCol = callColumns, lenRunes("c.fail") // one column more in the same box
	}
	// Numbers keep their usual column while the names keep minName; in a narrower box (the
	// wide layout at 120 columns) the number columns give up a space first.
	const minName = 10
	colWidth := min(numWidth, max((p.width-minName)/len(columns), minCol))
	nameWidth := max(p.width-len(columns)*colWidth, minName)
	head := s.Label.Render(padRight("request", nameWidth))
	for _, c := range columns {
		if lenRunes(c) >= colWidth {
			c = shortColumn[c] // "limited" → "lim": a header must keep a space before it
		}
		head += s.Label.Render(padLeft(c, colWidth))
	}
	lines := []string{s.Section.Render("Requests") + s.Muted.Render("  (run; latency in ms)"), head}
	names := requestsByCount(tot.ByRequest)
	// When the rows do not all fit, the last one says how many are left out.
	room := max(p.height-len(lines), 0)
	shown := min(len(names), maxRequestRows, room)
	if shown < len(names) && shown > 0 {
		shown--
	}
	for _, name := range names[:shown] {
		r := tot.ByRequest[name]
		cells := []string{formatInt(r.Completed), formatPct(r.Completed, tot.Completed), "-", "-",
			formatPct(r.Limited, r.Completed), formatInt(r.Failed)}
		if r.Completed > 0 {
			cells[2], cells[3] = formatMs(r.Latency.P50), formatMs(r.Latency.P99)
		}
		if len(columns) > len(requestColumns) {
			cells = append(cells, formatInt(r.Calls.Failed))
		}
		var b strings.Builder
		b.WriteString(padRight(truncate(safetext.Line(name), nameWidth-1), nameWidth))
		for _, c := range cells {
			b.WriteString(padLeft(c, colWidth))
		}
		lines = append(lines, b.String())
	}
	if left := len(names) - shown; left > 0 && room > 0 {
		lines = append(lines, s.Muted.Render("+"+formatInt(int64(left))+" more (rpcstress report lists them all)"))
	}
	return strings.Join(clip(lines, p.height), "\n")
}
