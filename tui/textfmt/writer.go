package textfmt

import (
	"fmt"
	"io"
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

// MinCut is the least room a cut or wrapped text keeps; with less it says nothing worth reading.
const MinCut = 8

// textWidth is the width to lay text out in: w, or DefaultWidth when w is not given.
func textWidth(w int) int {
	if w <= 0 {
		return DefaultWidth
	}
	return max(w, minTextWidth)
}

// Writer remembers the first write error, so a report made of many small prints needs one check
// at the end instead of one per line; after a failure it writes nothing more. It is also the last
// guard of the plain-text outputs: what it writes is made safe to show (safetext), whatever the
// caller forgot. Callers that lay text out escape it first (Table, Paragraph), so widths are
// right. It also carries the width the text is laid out in (terminal cells), so every part of a
// report fits the same.
type Writer struct {
	w     io.Writer
	err   error
	width int
}

// NewWriter writes to w, laid out in width cells (0: DefaultWidth).
func NewWriter(w io.Writer, width int) *Writer {
	return &Writer{w: w, width: textWidth(width)}
}

// Err is the first error writing, if any.
func (e *Writer) Err() error { return e.err }

// Width is how many terminal cells a line may take.
func (e *Writer) Width() int { return e.width }

// Printf writes a formatted line (or part of one); string and error arguments are made safe to
// show (safetext).
func (e *Writer) Printf(format string, a ...any) {
	if e.err != nil {
		return
	}
	safe := make([]any, len(a))
	for i, v := range a {
		switch x := v.(type) {
		case string:
			safe[i] = safetext.Line(x)
		case error:
			safe[i] = safetext.Line(x.Error())
		default: // numbers, and Stringers, which may be printed with %d: ours, never a target's
			safe[i] = v
		}
	}
	_, e.err = fmt.Fprintf(e.w, format, safe...)
}

// Line writes s and a newline.
func (e *Writer) Line(s string) {
	if e.err != nil {
		return
	}
	_, e.err = io.WriteString(e.w, safetext.Line(s)+"\n")
}

// Paragraph writes prose wrapped between words to the writer's width, the first line after
// first, the others after rest (a hanging indent: "  - " then "    ").
func (e *Writer) Paragraph(first, rest, text string) {
	e.wrapped(first, rest, text, WrapWords)
}

// List writes a list ("a; b; c") wrapped between its items where it can (see Wrap).
func (e *Writer) List(first, rest, text string) {
	e.wrapped(first, rest, text, Wrap)
}

func (e *Writer) wrapped(first, rest, text string, wrap func(string, int) []string) {
	w := e.width - max(ansi.StringWidth(first), ansi.StringWidth(rest))
	// Escaped before it is measured (escapes take room), as table cells are.
	for i, l := range wrap(safetext.Line(text), max(w, MinCut)) {
		if i == 0 {
			e.Line(strings.TrimRight(first+l, " "))
		} else {
			e.Line(strings.TrimRight(rest+l, " "))
		}
	}
}

// WriteParagraph writes text wrapped to width cells (0: DefaultWidth), its first line after
// first and the others after rest: for the lines the command line prints around a report.
func WriteParagraph(w io.Writer, first, rest, text string, width int) error {
	ew := NewWriter(w, width)
	ew.Paragraph(first, rest, text)
	return ew.err
}
