package textfmt

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Section writes a table as a part of a report: a blank line, its caption, its rows indented by
// two and its note; or "Title: Empty" when it has no rows; or nothing when it does not show.
func (w *Writer) Section(t *Table) {
	if !t.Shown() {
		return
	}
	w.Line("")
	if len(t.Rows) == 0 {
		w.Line(t.Name() + ": " + t.Empty)
		return
	}
	w.Line(t.Caption)
	w.Table(t, "  ")
	if t.Note != "" {
		w.Paragraph("  ", "  ", t.Note)
	}
}

// Table writes the table's head and rows, each line starting with indent, in the writer's width.
func (w *Writer) Table(t *Table, indent string) {
	for _, l := range t.Lines(indent, w.width) {
		w.Line(l)
	}
}

// Lines lays out the head and the rows, each line starting with indent, no line longer than
// width if the cells allow it (0: as wide as the cells make it): the columns that give way do so
// first, down to minKeep cells; then the gap between columns shrinks from two spaces to one, and
// they give way further, down to MinCut.
func (t *Table) Lines(indent string, width int) []string {
	rows := t.grid()
	if len(rows) == 0 {
		return nil
	}
	widths := widths(rows, len(t.Right))
	gap := 2
	if width <= 0 {
		width = lineWidth(indent, widths, gap)
	}
	// Cutting a long message a little reads better than cramming every column together; only
	// when the messages would get too short does the gap shrink as well.
	if over := lineWidth(indent, widths, gap) - width; over > 0 && !t.shrink(widths, over, t.keep, false) {
		gap = 1
		if over := lineWidth(indent, widths, gap) - width; over > 0 {
			t.shrink(widths, over, MinCut, true)
		}
	}
	var out []string
	for _, row := range rows {
		for _, l := range t.rowLines(row, widths, gap, width-ansi.StringWidth(indent)) {
			out = append(out, indent+l)
		}
	}
	return out
}

// shrink takes over cells from the columns that give way, always from the widest, none below
// floor. It reports whether it found them all; if not, widths are taken as far as they go only
// when partial is set, else left as they were.
func (t *Table) shrink(widths []int, over, floor int, partial bool) bool {
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
func (t *Table) rowLines(row Row, widths []int, gap, width int) []string {
	cells := make([][]string, len(row.Cells))
	lines := 1
	for i, c := range row.Cells {
		switch t.give[i] {
		case giveWrap:
			cells[i] = Wrap(c, widths[i])
		case giveCutLeft:
			cells[i] = []string{truncateLeft(c, widths[i])}
		default:
			cells[i] = []string{Truncate(c, widths[i])}
		}
		lines = max(lines, len(cells[i]))
	}
	sep := strings.Repeat(" ", gap)
	out := make([]string, 0, lines)
	for k := 0; k < lines; k++ {
		var b strings.Builder
		for i := range row.Cells {
			c := ""
			if k < len(cells[i]) {
				c = cells[i][k]
			}
			if i > 0 {
				b.WriteString(sep)
			}
			pad := strings.Repeat(" ", max(widths[i]-ansi.StringWidth(c), 0))
			if t.Right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		if k == 0 && row.Span != "" {
			if b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteString(Truncate(row.Span, width-ansi.StringWidth(b.String())))
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

func lineWidth(indent string, widths []int, gap int) int {
	n := ansi.StringWidth(indent) + gap*(len(widths)-1)
	for _, w := range widths {
		n += w
	}
	return n
}

// NaturalWidth is how wide the table is laid out with nothing cut and two spaces between columns.
func (t *Table) NaturalWidth(indent string) int {
	return lineWidth(indent, widths(t.grid(), len(t.Right)), 2)
}

// grid is what the text lays out: the head, if any, then the rows.
func (t *Table) grid() []Row {
	if t.Head == nil {
		return t.Rows
	}
	return append([]Row{{Cells: t.Head}}, t.Rows...)
}

// widths are the columns' widths in cells: each its widest cell.
func widths(rows []Row, n int) []int {
	widths := make([]int, n)
	for _, row := range rows {
		for i, c := range row.Cells {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	return widths
}

// truncateLeft shortens s to at most n cells by cutting its start, marked with "…".
func truncateLeft(s string, n int) string {
	over := ansi.StringWidth(s) - n
	if over <= 0 || n <= 0 {
		return Truncate(s, n)
	}
	return ansi.TruncateLeft(s, over+1, "…")
}
