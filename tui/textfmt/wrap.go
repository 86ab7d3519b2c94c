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
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
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
			wrapped := strings.Split(ansi.Wrap(cur, width, ""), "\n")
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
