package tui

import "testing"

func TestPadCells(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{padLeft("42", 5), "   42"},              // right-aligned
		{padRight("42", 5), "42   "},             // left-aligned
		{padLeft("エラー", 8), "  エラー"},             // three wide characters are six cells
		{padRight("🔥", 4), "🔥  "},                // an emoji is two
		{padLeft("too long", 3), "too long"},     // never cut
		{padRight("[1mb[0m", 2), "[1mb[0m "}, // styles take no room
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: %q, want %q", i, tt.got, tt.want)
		}
	}
}
