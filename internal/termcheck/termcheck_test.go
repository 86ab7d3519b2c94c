package termcheck

import "testing"

func TestObeyed(t *testing.T) {
	tests := []struct {
		in   string
		tabs bool
		bad  bool
	}{
		{"plain text é 日本\n", false, false},      // text and newlines
		{"a\tb", true, false},                    // a tab, allowed
		{"a\tb", false, true},                    // a tab, not allowed
		{"\x1b[2J", false, true},                 // ESC
		{"\x07", false, true},                    // BEL
		{"\x00", false, true},                    // NUL
		{"\x7f", false, true},                    // DEL
		{"\u009b", false, true},                  // C1 CSI
		{"\u202e", false, true},                  // right-to-left override
		{"\u2067", false, true},                  // right-to-left isolate
		{"\xff", false, true},                    // not UTF-8
		{"\ufffd", false, false},                 // the replacement character itself
		{`\x1b]0;pwned\x07\u202e`, false, false}, // escaped
	}
	for _, tc := range tests {
		if got := Obeyed(tc.in, tc.tabs); (got != "") != tc.bad {
			t.Errorf("Obeyed(%q, %v) = %q, want bad %v", tc.in, tc.tabs, got, tc.bad)
		}
	}
}
