package textfmt

import (
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapWords: lines never pass the width, words are kept whole where they fit.
func TestWrapWords(t *testing.T) {
	tests := []struct {
		s     string
		width int
		want  []string
	}{
		// Between words, as ansi.Wrap does.
		{"the quick brown fox", 10, []string{"the quick", "brown fox"}},
		// A word ending in a hyphen at the edge: ansi.Wrap keeps it one cell over ("abc (-"),
		// so the text is wrapped a cell narrower.
		{"abc (- def", 5, []string{"abc", "(-", "def"}},
		// The compare legend's "(- for a run without rules)" met the edge the same way.
		{"expect rule (- for a run", 13, []string{"expect rule", "(- for a run"}},
		{"abc -- def", 5, []string{"abc -", "- def"}},
		// A word wider than the width is split.
		{"https://example.com/x", 8, []string{"https://", "example.", "com/x"}},
	}
	for _, tt := range tests {
		got := WrapWords(tt.s, tt.width)
		if !slices.Equal(got, tt.want) {
			t.Errorf("WrapWords(%q, %d) = %q, want %q", tt.s, tt.width, got, tt.want)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > tt.width {
				t.Errorf("WrapWords(%q, %d): %q is %d cells", tt.s, tt.width, l, ansi.StringWidth(l))
			}
		}
	}
}

// TestWrapAt: extra breakpoints break where spaces would not, and a hyphen at the edge still
// never passes the width.
func TestWrapAt(t *testing.T) {
	tests := []struct {
		s, breakpoints string
		width          int
		want           []string
	}{
		// A JSON body breaks after its commas.
		{`["abc","def"]`, ",", 8, []string{`["abc",`, `"def"]`}},
		// ansi.Wrap left " [-] b " one cell over the width.
		{" [-] b --c", ",", 6, []string{" [-]", "b --c"}},
	}
	for _, tt := range tests {
		got := WrapAt(tt.s, tt.width, tt.breakpoints)
		if !slices.Equal(got, tt.want) {
			t.Errorf("WrapAt(%q, %d, %q) = %q, want %q", tt.s, tt.width, tt.breakpoints, got, tt.want)
		}
		if !fitWidth(got, tt.width) {
			t.Errorf("WrapAt(%q, %d, %q) = %q: wider than the width", tt.s, tt.width, tt.breakpoints, got)
		}
	}
}
