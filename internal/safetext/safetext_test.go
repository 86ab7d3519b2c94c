package safetext

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestLineAndText(t *testing.T) {
	tests := []struct {
		in, line, text string
	}{
		// Plain text, and text with what is safe: quotes, backslashes, accents, CJK, emoji.
		{"getBalance", "getBalance", "getBalance"},
		{`say "hi" C:\dir é 日本 👍🏽`, `say "hi" C:\dir é 日本 👍🏽`, `say "hi" C:\dir é 日本 👍🏽`},
		// The message of the report: an OSC title change, a screen clear, BEL, NUL, U+202E.
		{"bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil", `bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil`, `bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil`},
		// Tab and newline: escaped on one line, the newline kept in Text.
		{"a\tb\nc\r\n", `a\x09b\x0ac\x0d\x0a`, "a\\x09b\nc\\x0d\n"},
		// DEL and the C1 controls, U+009B being a one-byte CSI.
		{"x\x7fy\u0080\u009b2J\u009f", `x\x7fy\u0080\u009b2J\u009f`, `x\x7fy\u0080\u009b2J\u009f`},
		// Every bidirectional control, and the separators.
		{"\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029",
			`\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029`,
			`\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029`},
		// Their neighbours stay: U+00A0, U+200D (joins emoji), U+2030, U+2065, U+206A.
		{"\u00a0\u200d\u2030\u2065\u206a", "\u00a0\u200d\u2030\u2065\u206a", "\u00a0\u200d\u2030\u2065\u206a"},
		// Bytes that are not UTF-8, alone and cutting a rune; U+FFFD itself is fine.
		{"a\xffb\xe2\x80c\ufffd", `a\xffb\xe2\x80c` + "\ufffd", `a\xffb\xe2\x80c` + "\ufffd"},
		// Empty.
		{"", "", ""},
	}
	for _, tc := range tests {
		if got := Line(tc.in); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}

// Whatever goes in, nothing that reaches a terminal as a control comes out (only Text keeps
// newlines), and escaping again changes nothing.
func FuzzLine(f *testing.F) {
	f.Add("bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil")
	f.Add("a\xffb\u009b\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, tc := range []struct {
			out      string
			newlines bool
		}{{Line(s), false}, {Text(s), true}} {
			if !utf8.ValidString(tc.out) {
				t.Fatalf("%q: invalid UTF-8 out: %q", s, tc.out)
			}
			for _, r := range tc.out {
				if unsafe(r) && !(r == '\n' && tc.newlines) {
					t.Fatalf("%q: %q left in %q", s, r, tc.out)
				}
			}
			if again := Line(tc.out); !tc.newlines && again != tc.out {
				t.Fatalf("Line is not idempotent: %q, then %q", tc.out, again)
			}
		}
	})
}

func TestJSON(t *testing.T) {
	msg := "bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil\x7f\u009b\u2066"
	raw, err := json.Marshal(map[string]string{"message": msg})
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(raw)
	for _, r := range string(out) {
		if r < 0x20 || unsafe(r) {
			t.Errorf("%q left in %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["message"] != msg {
		t.Errorf("read back %q (%v), want %q", back["message"], err, msg)
	}
	// Nothing to escape: the same bytes.
	plain := []byte(`{"a":"b"}`)
	if got := JSON(plain); &got[0] != &plain[0] {
		t.Errorf("JSON copied text with nothing to escape")
	}
}
