package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// DefaultWidth is how wide text output is when it does not go to a terminal (a pipe, a file, a
// CI log): 80 columns, the width every terminal has at least, so a report pasted into an issue
// or read in a narrow window never wraps. On a terminal the caller passes the terminal's width.
const DefaultWidth = 80

// minTextWidth is the narrowest width honoured: below it, cut messages and wrapped sentences say
// too little to be worth it.
const minTextWidth = 40

// textWidth is the width to lay text out in: w, or DefaultWidth when w is not given.
func textWidth(w int) int {
	if w <= 0 {
		return DefaultWidth
	}
	return max(w, minTextWidth)
}

// minKeep is how short a cut last column may get before the gaps shrink too; minCut is the least
// it keeps at all, or it says nothing.
const (
	minKeep = 20
	minCut  = 8
)

// table lays out rows of cells in aligned columns: labels left, numbers right so that digits line
// up. Left-aligned columns may give way when the table is wider than the width (by default the
// last, when it is left-aligned: a message, a detail): cut to fit with "…", or, for what must be
// read whole (a sentence, a file:line), wrapped onto more lines. Numbers never give way.
type table struct {
	right []bool // per column: align right
	give  []give // per column: how it gives way
	rows  []tableRow
	// keep is how narrow a column that gives way may get before the gap between columns
	// shrinks: minKeep, or more for a column whose items read badly when broken.
	keep int
}

// give is how a column gives way when the table is too wide.
type give int

const (
	giveNot     give = iota // keeps its width
	giveCut                 // cut with "…"
	giveWrap                // wrapped onto more lines
	giveCutLeft             // its start cut with "…": a file:line keeps its line number
)

// tableRow is one row: its cells, or its first cells and a span, a text that takes the place of
// the columns after them (a stage that did not run has no numbers to put there).
type tableRow struct {
	cells []string
	span  string
}

// newTable makes a table whose column alignment is given as a string, one letter a column:
// 'l' left, 'r' right ("lrrr": a label and three numbers).
func newTable(align string) *table {
	t := &table{right: make([]bool, len(align)), give: make([]give, len(align)), keep: minKeep}
	for i, a := range align {
		t.right[i] = a == 'r'
	}
	if last := len(t.right) - 1; last >= 0 && !t.right[last] {
		t.give[last] = giveCut
	}
	return t
}

// giveWay lets column i give way when the table is too wide: wrapped onto more lines (wrap) or
// cut with "…".
func (t *table) giveWay(i int, wrap bool) *table {
	t.give[i] = giveCut
	if wrap {
		t.give[i] = giveWrap
	}
	return t
}

// keepAtLeast makes the columns that give way keep n cells before the gap shrinks.
func (t *table) keepAtLeast(n int) *table {
	t.keep = n
	return t
}

// giveWayLeft lets column i give way by losing its start: a path's end names the file and line.
func (t *table) giveWayLeft(i int) *table {
	t.give[i] = giveCutLeft
	return t
}

// add appends a row; missing cells are blank, extra cells are dropped. Cells are made safe to
// show (safetext) before they are measured: a name or message may come from a target or a file.
func (t *table) add(cells ...string) {
	row := make([]string, len(t.right))
	for i := range min(len(cells), len(row)) {
		row[i] = safetext.Line(cells[i])
	}
	t.rows = append(t.rows, tableRow{cells: row})
}

// addSpan appends a row of the given leading cells followed by text where the other columns
// would be; the text does not widen any column.
func (t *table) addSpan(text string, cells ...string) {
	row := make([]string, min(len(cells), len(t.right)))
	for i := range row {
		row[i] = safetext.Line(cells[i])
	}
	t.rows = append(t.rows, tableRow{cells: row, span: safetext.Line(text)})
}

// write prints the table, each line starting with indent, no line longer than width if the cells
// allow it: the columns that give way do so first, down to minKeep cells; then the gap between
// columns shrinks from two spaces to one, and they give way further, down to minCut.
func (t *table) write(ew *errWriter, indent string, width int) {
	if len(t.rows) == 0 {
		return
	}
	widths := t.widths()
	gap := 2
	// Cutting a long message a little reads better than cramming every column together; only
	// when the messages would get too short does the gap shrink as well.
	if over := lineWidth(indent, widths, gap) - width; over > 0 && !t.shrink(widths, over, t.keep, false) {
		gap = 1
		if over := lineWidth(indent, widths, gap) - width; over > 0 {
			t.shrink(widths, over, minCut, true)
		}
	}
	for _, row := range t.rows {
		for _, l := range t.rowLines(row, widths, gap, width-cellWidth(indent)) {
			ew.line(indent + l)
		}
	}
}

// shrink takes over cells from the columns that give way, always from the widest, none below
// floor. It reports whether it found them all; if not, widths are taken as far as they go only
// when partial is set, else left as they were.
func (t *table) shrink(widths []int, over, floor int, partial bool) bool {
	w := append([]int(nil), widths...)
	for ; over > 0; over-- {
		widest := -1
		for i := range w {
			if t.give[i] != giveNot && w[i] > floor && (widest < 0 || w[i] > w[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		w[widest]--
	}
	if over == 0 || partial {
		copy(widths, w)
	}
	return over == 0
}

// rowLines lays out one row: one line, or more when a column wraps.
func (t *table) rowLines(row tableRow, widths []int, gap, width int) []string {
	cells := make([][]string, len(row.cells))
	lines := 1
	for i, c := range row.cells {
		switch t.give[i] {
		case giveWrap:
			cells[i] = wrapText(c, widths[i])
		case giveCutLeft:
			cells[i] = []string{truncateLeft(c, widths[i])}
		default:
			cells[i] = []string{truncate(c, widths[i])}
		}
		lines = max(lines, len(cells[i]))
	}
	sep := strings.Repeat(" ", gap)
	out := make([]string, 0, lines)
	for k := 0; k < lines; k++ {
		var b strings.Builder
		for i := range row.cells {
			c := ""
			if k < len(cells[i]) {
				c = cells[i][k]
			}
			if i > 0 {
				b.WriteString(sep)
			}
			pad := strings.Repeat(" ", max(widths[i]-cellWidth(c), 0))
			if t.right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		if k == 0 && row.span != "" {
			if b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteString(truncate(row.span, width-cellWidth(b.String())))
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

func lineWidth(indent string, widths []int, gap int) int {
	n := cellWidth(indent) + gap*(len(widths)-1)
	for _, w := range widths {
		n += w
	}
	return n
}

// naturalWidth is how wide the table is laid out with nothing cut and two spaces between columns.
func (t *table) naturalWidth(indent string) int { return lineWidth(indent, t.widths(), 2) }

// widths are the columns' widths in cells: each its widest cell.
func (t *table) widths() []int {
	widths := make([]int, len(t.right))
	for _, row := range t.rows {
		for i, c := range row.cells {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	return widths
}

// truncateLeft shortens s to at most n cells by cutting its start, marked with "…".
func truncateLeft(s string, n int) string {
	over := cellWidth(s) - n
	if over <= 0 || n <= 0 {
		return truncate(s, n)
	}
	return ansi.TruncateLeft(s, over+1, "…")
}
