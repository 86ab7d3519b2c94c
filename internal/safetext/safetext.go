// Package safetext makes text that came from a target or a file safe to show: a JSON-RPC error
// message, a header value, a profile's or a request's name, a URL, a path. Such text can hold
// terminal escape sequences (ESC ] 0 ; title BEL sets the window title, ESC [ 2 J clears the
// screen), NUL, or bidirectional overrides that make text read backwards; printed raw, the
// target writes to the user's terminal. Every output that shows such text (the dashboard, the
// line output, the text, CSV and HTML reports, validate, error messages) passes it through
// here first, and keeps the original where it stores it (snapshots keep the raw string).
//
// What is escaped, and how (one readable form, Go's): a byte is written \xHH, a rune \uHHHH,
// both in lower-case hex.
//
//   - C0 controls U+0000–U+001F (ESC, BEL, NUL, and in Line also tab and newline) and DEL
//     U+007F: \x1b, \x07, \x00, \x09, \x0a, \x7f.
//   - Bytes that are not UTF-8: \xff.
//   - C1 controls U+0080–U+009F (U+009B is a one-byte CSI on some terminals): \u009b.
//   - Bidirectional controls: the embeddings and overrides U+202A–U+202E, the isolates
//     U+2066–U+2069 and the marks U+200E, U+200F, U+061C: \u202e.
//   - The line and paragraph separators U+2028, U+2029, which some terminals and viewers
//     break lines at: \u2028.
//
// A backslash is left as it is, so text that already reads "\x1b" is ambiguous with an
// escaped ESC; that costs nothing in safety and keeps paths and regular expressions readable.
package safetext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Line returns s safe to show on one line: every character listed in the package comment,
// tab and newline included, is escaped. s is returned as is when nothing needs escaping.
func Line(s string) string { return escape(s, false) }

// Text is Line for text of several lines, such as a list of problems: newlines are kept.
func Text(s string) string { return escape(s, true) }

func escape(s string, keepNewlines bool) string {
	i := firstUnsafe(s, keepNewlines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeHex(&b, `\x`, uint32(s[i]), 2)
		case r == '\n' && keepNewlines, !unsafe(r):
			b.WriteString(s[i : i+size])
		case r < utf8.RuneSelf:
			writeHex(&b, `\x`, uint32(r), 2)
		default:
			writeHex(&b, `\u`, uint32(r), 4)
		}
		i += size
	}
	return b.String()
}

// firstUnsafe is the index of the first byte of s to escape, or -1.
func firstUnsafe(s string, keepNewlines bool) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
			continue
		}
		if unsafe(r) && !(r == '\n' && keepNewlines) {
			return i
		}
	}
	return -1
}

// unsafe reports whether r is escaped (see the package comment).
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r < 0x61c:
		return false
	}
	switch r {
	case 0x61c, 0x200e, 0x200f, 0x2028, 0x2029:
		return true
	}
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

func writeHex(b *strings.Builder, prefix string, v uint32, digits int) {
	b.WriteString(prefix)
	h := strconv.FormatUint(uint64(v), 16)
	for range digits - len(h) {
		b.WriteByte('0')
	}
	b.WriteString(h)
}

// JSON escapes, as \uHHHH, the characters of the package comment that JSON text produced by
// encoding/json still holds raw (DEL, C1 controls, bidirectional controls): the value read
// back is the same, and the text is safe to print. Such characters occur only inside strings,
// where \uHHHH means them exactly. Invalid UTF-8 is left alone (encoding/json writes none).
func JSON(data []byte) []byte {
	s := string(data)
	if firstUnsafe(s, true) < 0 {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == utf8.RuneError && size == 1 || !unsafe(r) {
			out = append(out, s[i:i+size]...)
		} else {
			out = append(out, `\u`...)
			h := strconv.FormatUint(uint64(r), 16)
			out = append(out, "0000"[len(h):]...)
			out = append(out, h...)
		}
		i += size
	}
	return out
}
