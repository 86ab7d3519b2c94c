package tui

import (
	"fmt"
	"io"
)

// errWriter remembers the first write error, so a report made of many small prints needs one check
// at the end instead of one per line; after a failure it writes nothing more.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err != nil {
		return
	}
	_, e.err = fmt.Fprintf(e.w, format, a...)
}

func (e *errWriter) line(s string) {
	if e.err != nil {
		return
	}
	_, e.err = io.WriteString(e.w, s+"\n")
}
