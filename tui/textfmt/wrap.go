package textfmt

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks s into lines of at most width terminal cells, so that a sentence is read
// whole instead of cut with "…". A list, its items separated by two spaces ("ok 734 (56.5%)
// limited 405 (31.2%)") or by "; " (the breaches of an SLO), breaks between items, never inside
// one unless an item alone is too wide; other text breaks between words, and a word wider than
// the width (a URL) is split.
func Wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	switch {
	case ansi.StringWidth(s) <= width:
		return []string{s}
	case strings.Contains(s, "  "):
		return wrapItems(strings.Split(s, "  "), "  ", width)
	case strings.Contains(s, "; "):
		return wrapItems(strings.Split(s, "; "), "; ", width)
	}
	return WrapWords(s, width)
}

// WrapWords breaks s between words into lines of at most width terminal cells, splitting a
// word only when it is wider than the width: WrapAt with no breakpoints beyond spaces and hyphens.
func WrapWords(s string, width int) []string { return WrapAt(s, width, "") }

// WrapAt breaks s into lines of at most width terminal cells at spaces, hyphens and the
// characters of breakpoints (", " to break a JSON body after its commas too), splitting a word
// only when it is wider than the width. It is ansi.Wrap without its overflow: a word that ends
// in a hyphen at the edge ("(-", "--") stays on its line one cell past the width (x/ansi
// v0.11.7: "abc (- def" at 5 gives "abc (-", 6 cells); the text is then wrapped a cell
// narrower, and only if that too overflows is it cut.
func WrapAt(s string, width int, breakpoints string) []string {
	for w := width; w >= max(width-1, 1); w-- {
		if lines := strings.Split(ansi.Wrap(s, w, breakpoints), "\n"); fitWidth(lines, width) {
			return lines
		}
	}
	return strings.Split(ansi.Hardwrap(s, width, true), "\n")
}

// fitWidth reports whether every line is at most width cells wide.
func fitWidth(lines []string, width int) bool {
	for _, l := range lines {
		if ansi.StringWidth(l) > width {
			return false
		}
	}
	return true
}

// wrapItems puts as many items on a line as fit, joined by sep; a line that breaks keeps the
// separator's mark (";"), and an item wider than the width is wrapped on its own.
func wrapItems(items []string, sep string, width int) []string {
	mark := strings.TrimRight(sep, " ")
	var lines []string
	cur := ""
	for i, item := range items {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if i < len(items)-1 {
			item += mark // the mark stays with its item, so a line never starts with it
		}
		switch {
		case cur == "":
			cur = item
		case ansi.StringWidth(cur+strings.Repeat(" ", len(sep)-len(mark))+item) <= width:
			cur += strings.Repeat(" ", len(sep)-len(mark)) + item
		default:
			lines = append(lines, cur)
			cur = item
		}
		if ansi.StringWidth(cur) > width {
			wrapped := WrapWords(cur, width)
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
