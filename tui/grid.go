package tui

import "strings"

// column is one right-aligned column of a dashboard table (stages, requests): its head, its
// cells (one per row) and how readily it gives way on a narrow terminal.
type column struct {
	head  string
	cells []string
	// drop orders the columns left out when even the narrowest layout does not fit: the
	// lowest first; 0 is never left out.
	drop int
}

// fitColumns chooses each column's width so the columns fit width cells: numWidth each when
// there is room (the dashboard's usual grid, aligned with the other panes), else one cell wider
// than the widest of the head and the cells, and when even that does not fit, the columns that
// matter least are left out (width 0). A table that fits its pane never wraps inside its box.
func fitColumns(cols []column, width int) []int {
	natural := make([]int, len(cols))
	roomy := make([]int, len(cols))
	for i, c := range cols {
		w := cellWidth(c.head)
		for _, cell := range c.cells {
			w = max(w, cellWidth(cell))
		}
		natural[i] = w + 1
		roomy[i] = max(natural[i], numWidth)
	}
	if sum(roomy) <= width {
		return roomy
	}
	if sum(natural) <= width {
		// Share what is left a cell at a time, so the columns do not huddle on the left.
		for extra := width - sum(natural); extra > 0; {
			grew := false
			for i := range natural {
				if extra > 0 && natural[i] < roomy[i] {
					natural[i]++
					extra--
					grew = true
				}
			}
			if !grew {
				break
			}
		}
		return natural
	}
	for sum(natural) > width {
		// Leave out the column that gives way first among those still shown.
		drop := -1
		for i, c := range cols {
			if natural[i] > 0 && c.drop > 0 && (drop < 0 || c.drop < cols[drop].drop) {
				drop = i
			}
		}
		if drop < 0 {
			break // nothing more may go: the caller's line is cut at the pane's edge
		}
		natural[drop] = 0
	}
	return natural
}

// gridRow writes cells right-aligned in the widths fitColumns chose, leaving out the columns of
// width 0.
func gridRow(cells []string, widths []int) string {
	var b strings.Builder
	for i, c := range cells {
		if i < len(widths) && widths[i] > 0 {
			b.WriteString(padLeft(c, widths[i]))
		}
	}
	return b.String()
}

// dropped counts the columns fitColumns left out.
func dropped(widths []int) int {
	n := 0
	for _, w := range widths {
		if w == 0 {
			n++
		}
	}
	return n
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
