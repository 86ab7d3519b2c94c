package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// reportWidth is the widest line a report writes: it must read in an 80–100 column terminal and
// paste into an issue without wrapping.
const reportWidth = 100

// minKeep is how short a cut last column may get before the gaps shrink too; minCut is the least
// it keeps at all, or it says nothing.
const (
	minKeep = 20
	minCut  = 8
)

// table lays out rows of cells in aligned columns: labels left, numbers right so that digits line
// up. A left-aligned last column (a message, a detail) is cut to fit the width instead of pushing
// the line past it.
type table struct {
	right []bool // per column: align right
	rows  [][]string
}

// newTable makes a table whose column alignment is given as a string, one letter a column:
// 'l' left, 'r' right ("lrrr": a label and three numbers).
func newTable(align string) *table {
	t := &table{right: make([]bool, len(align))}
	for i, a := range align {
		t.right[i] = a == 'r'
	}
	return t
}

// add appends a row; missing cells are blank, extra cells are dropped. Cells are made safe to
// show (safetext) before they are measured: a name or message may come from a target or a file.
func (t *table) add(cells ...string) {
	row := make([]string, len(t.right))
	for i := range min(len(cells), len(row)) {
		row[i] = safetext.Line(cells[i])
	}
	t.rows = append(t.rows, row)
}

// write prints the table, each line starting with indent, no line longer than width if the cells
// allow it: the gap between columns shrinks from two spaces to one before the last column is cut.
func (t *table) write(ew *errWriter, indent string, width int) {
	if len(t.rows) == 0 {
		return
	}
	widths := make([]int, len(t.right))
	for _, row := range t.rows {
		for i, c := range row {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	gap := 2
	last := len(widths) - 1
	cuttable := !t.right[last]
	if over := lineWidth(indent, widths, gap) - width; over > 0 {
		// Cutting a long message a little reads better than cramming every column together;
		// only when the message would get too short does the gap shrink as well.
		if cuttable && widths[last]-over >= minKeep {
			widths[last] -= over
		} else {
			gap = 1
			if over := lineWidth(indent, widths, gap) - width; over > 0 && cuttable {
				widths[last] = max(widths[last]-over, minCut)
			}
		}
	}
	var b strings.Builder
	for _, row := range t.rows {
		b.Reset()
		b.WriteString(indent)
		for i, c := range row {
			if i > 0 {
				b.WriteString(strings.Repeat(" ", gap))
			}
			c = truncate(c, widths[i])
			pad := strings.Repeat(" ", widths[i]-cellWidth(c))
			if t.right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		ew.line(strings.TrimRight(b.String(), " "))
	}
}

func lineWidth(indent string, widths []int, gap int) int {
	n := cellWidth(indent) + gap*(len(widths)-1)
	for _, w := range widths {
		n += w
	}
	return n
}
