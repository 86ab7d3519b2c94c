package textfmt

import "github.com/rpcstress/rpcstress/internal/safetext"

// Table is one table of a report as data, so that it is built once and drawn twice: Lines lays
// it out in terminal cells for the text report, and the HTML page draws the same Caption, Head,
// Rows, Right and Note as an HTML table. Cells are made safe to show (safetext) as they are
// added: a name or a message may come from a target or a file.
//
// Labels are left-aligned and numbers right-aligned, so that digits line up. In text,
// left-aligned columns may give way when the table is wider than the width (by default the
// last, when it is left-aligned: a message, a detail): cut to fit with "…", or, for what must be
// read whole (a sentence, a file:line), wrapped onto more lines. Numbers never give way.
type Table struct {
	// Caption heads the table: "HTTP status (share of 2485 completed)".
	Caption string
	// Title is the table's short name, said with Empty when it has no rows ("HTTP status:
	// none received"); "" means the Caption.
	Title string
	// Empty says that there is nothing to show, in place of the rows; "" leaves a table
	// without rows out.
	Empty string
	// Note is what a reader needs to read the table: what its short labels mean.
	Note string
	// Head names the columns; nil for a table of labelled values.
	Head []string
	Rows []Row
	// Right says per column whether it holds numbers, aligned right.
	Right []bool

	give []give // per column: how it gives way in text
	// keep is how narrow a column that gives way may get before the gap between columns
	// shrinks: minKeep, or more for a column whose items read badly when broken.
	keep int
}

// Row is one row: its cells, or its first cells and a span, a text that takes the place of the
// SpanCols columns after them (a stage that did not run has no numbers to put there).
type Row struct {
	Cells    []string
	Span     string
	SpanCols int
}

// minKeep is how short a cut column may get before the gaps shrink too.
const minKeep = 20

// give is how a column gives way when the table is too wide.
type give int

const (
	giveNot     give = iota // keeps its width
	giveCut                 // cut with "…"
	giveWrap                // wrapped onto more lines
	giveCutLeft             // its start cut with "…": a file:line keeps its line number
)

// NewTable makes a table whose column alignment is given as a string, one letter a column:
// 'l' left, 'r' right ("lrrr": a label and three numbers), and whose columns are named head
// (none: a table of labelled values).
func NewTable(align string, head ...string) *Table {
	t := &Table{Right: make([]bool, len(align)), give: make([]give, len(align)), keep: minKeep}
	for i, a := range align {
		t.Right[i] = a == 'r'
	}
	if last := len(t.Right) - 1; last >= 0 && !t.Right[last] {
		t.give[last] = giveCut
	}
	if len(head) > 0 {
		t.Head = t.cells(head)
	}
	return t
}

// GiveWay lets column i give way when the table is too wide: wrapped onto more lines (wrap) or
// cut with "…".
func (t *Table) GiveWay(i int, wrap bool) *Table {
	t.give[i] = giveCut
	if wrap {
		t.give[i] = giveWrap
	}
	return t
}

// KeepAtLeast makes the columns that give way keep n cells before the gap shrinks.
func (t *Table) KeepAtLeast(n int) *Table {
	t.keep = n
	return t
}

// GiveWayLeft lets column i give way by losing its start: a path's end names the file and line.
func (t *Table) GiveWayLeft(i int) *Table {
	t.give[i] = giveCutLeft
	return t
}

// Add appends a row; missing cells are blank, extra cells are dropped.
func (t *Table) Add(cells ...string) {
	t.Rows = append(t.Rows, Row{Cells: t.cells(cells)})
}

// AddSpan appends a row of the given leading cells followed by text where the other columns
// would be; the text does not widen any column.
func (t *Table) AddSpan(text string, cells ...string) {
	row := make([]string, min(len(cells), len(t.Right)))
	for i := range row {
		row[i] = safetext.Line(cells[i])
	}
	t.Rows = append(t.Rows, Row{Cells: row, Span: safetext.Line(text), SpanCols: len(t.Right) - len(row)})
}

// cells makes a row of the table's width, each cell safe to show, measured after it is escaped.
func (t *Table) cells(cells []string) []string {
	row := make([]string, len(t.Right))
	for i := range min(len(cells), len(row)) {
		row[i] = safetext.Line(cells[i])
	}
	return row
}

// Name is what the table is called where it has no rows: its Title, or its Caption.
func (t *Table) Name() string {
	if t.Title != "" {
		return t.Title
	}
	return t.Caption
}

// Shown says whether the table shows at all: it has rows, or says why not.
func (t *Table) Shown() bool { return len(t.Rows) > 0 || t.Empty != "" }
