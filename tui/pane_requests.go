package tui

import (
	"strings"

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
// head and the rows (the least: two of them).
func (p *requestsPane) Lines() (least, most int) {
	n := len(p.c.st.Total.ByRequest)
	if n < 2 {
		return 0, 0
	}
	top := 1
	if p.wide {
		top++
	}
	rows := min(n, maxRequestRows)
	if n > maxRequestRows {
		rows++
	}
	return top + 2, top + rows
}

func (p *requestsPane) View() string {
	s := p.c.styles
	tot := &p.c.st.Total
	var lines []string
	if p.wide {
		lines = append(lines, s.Section.Render("Requests")+s.Muted.Render("  (run; latency in ms)"))
	}
	names := runtext.RequestsByCount(tot.ByRequest)
	// When the rows do not all fit, the last one says how many are left out.
	room := max(p.height-len(lines)-1, 0)
	shown := min(len(names), maxRequestRows, room)
	if shown < len(names) && shown > 0 {
		shown--
	}
	cols := make([]column, len(requestColumns), len(requestColumns)+1)
	for i, c := range requestColumns {
		cols[i] = column{head: c.head, drop: c.drop}
	}
	// A run of JSON-RPC calls adds the calls failed (of a batch, many per request), the
	// first column to give way after "share".
	withCalls := tot.Calls.Sent > 0
	if withCalls {
		cols = append(cols, column{head: "c.fail", drop: 5})
	}
	// With expect rules, the requests whose answers broke one (among failed).
	checks := tot.Expect != nil
	if checks {
		cols = append(cols, column{head: "invalid", drop: 2})
	}
	rows := make([][]string, shown)
	for i, name := range names[:shown] {
		r := tot.ByRequest[name]
		rows[i] = []string{textfmt.Int(r.Completed), textfmt.Pct(r.Completed, tot.Completed), "-", "-",
			textfmt.Pct(r.Limited, r.Completed), textfmt.Int(r.Failed)}
		if r.Completed > 0 {
			rows[i][2], rows[i][3] = textfmt.Ms(r.Latency.P50), textfmt.Ms(r.Latency.P99)
		}
		if withCalls {
			rows[i] = append(rows[i], textfmt.Int(r.Calls.Failed))
		}
		if checks {
			rows[i] = append(rows[i], "-") // a request without rules
			if r.Expect != nil {
				rows[i][len(rows[i])-1] = textfmt.Int(r.Expect.Invalid)
			}
		}
		for j := range cols {
			cols[j].cells = append(cols[j].cells, rows[i][j])
		}
	}
	// The names get their whole width when the numbers fit beside it, closed up if need be;
	// else the names keep minName and the number columns shrink, then the least needed go.
	widths := fitColumns(cols, p.width-minName)
	longest := 0
	for _, name := range names[:shown] {
		longest = max(longest, cellWidth(safetext.Line(name)))
	}
	if whole := fitColumns(cols, p.width-max(longest+1, minName)); dropped(whole) == dropped(widths) {
		widths = whole
	}
	nameWidth := max(p.width-sum(widths), minName)
	heads := make([]string, len(cols))
	for i, c := range cols {
		heads[i] = c.head
	}
	lines = append(lines, s.Label.Render(padRight("request", nameWidth)+gridRow(heads, widths)))
	for i, name := range names[:shown] {
		lines = append(lines, padRight(textfmt.Truncate(safetext.Line(name), nameWidth-1), nameWidth)+gridRow(rows[i], widths))
	}
	if left := len(names) - shown; left > 0 && room > 0 {
		lines = append(lines, s.Muted.Render(textfmt.Truncate("+"+textfmt.Int(int64(left))+" more (rpcstress report lists them all)", p.width)))
	}
	return strings.Join(clip(lines, p.height), "\n")
}
