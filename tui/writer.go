package tui

import (
	"fmt"
	"io"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// errWriter remembers the first write error, so a report made of many small prints needs one check
// at the end instead of one per line; after a failure it writes nothing more. It is also the last
// guard of the plain-text outputs: what it writes is made safe to show (safetext), whatever the
// caller forgot. Callers that lay text out escape it first (table.add), so widths are right.
type errWriter struct {
	w   io.Writer
	err error
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
