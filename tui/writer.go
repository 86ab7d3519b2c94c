package tui

import (
	"fmt"
	"io"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// errWriter remembers the first write error, so a report made of many small prints needs one check
// at the end instead of one per line; after a failure it writes nothing more. It is also the last
// guard of the plain-text outputs: what it writes is made safe to show (safetext), whatever the
// caller forgot. Callers that lay text out escape it first (table.add, paragraph), so widths are
// right. It also carries the width the text is laid out in (terminal cells), so every part of a
// report fits the same.
type errWriter struct {
	w     io.Writer
	err   error
	width int
}

// newErrWriter writes to w, laid out in width cells (0: DefaultWidth).
func newErrWriter(w io.Writer, width int) *errWriter {
	return &errWriter{w: w, width: textWidth(width)}
}

func (e *errWriter) printf(format string, a ...any) {
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

func (e *errWriter) line(s string) {
	if e.err != nil {
		return
	}
	_, e.err = io.WriteString(e.w, safetext.Line(s)+"\n")
}
