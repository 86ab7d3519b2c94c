// Package termcheck is for tests: it finds what in an output a terminal would obey or reorder
// instead of showing. It is written apart from package safetext, which it checks, and shares
// no code with it.
package termcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Obeyed describes the first thing in out that a terminal would obey or reorder, or returns
// "": a control character other than newline and, when tabs is set, tab; DEL; a C1 control;
// a bidirectional embedding, override or isolate; a byte that is not UTF-8.
func Obeyed(out string, tabs bool) string {
	for i, r := range out {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(out[i:], "\ufffd"):
			return fmt.Sprintf("byte %#x at %d", out[i], i)
		case r == '\n', r == '\t' && tabs:
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("%U at byte %d, in …%q…", r, i, out[max(i-20, 0):min(i+20, len(out))])
		}
	}
	return ""
}
