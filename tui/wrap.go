package tui

import (
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// wrapText breaks s into lines of at most width terminal cells, so that a sentence is read
// whole instead of cut with "…". A list, its items separated by two spaces ("ok 734 (56.5%)
// limited 405 (31.2%)") or by "; " (the breaches of an SLO), breaks between items, never inside
// one unless an item alone is too wide; other text breaks between words, and a word wider than
// the width (a URL) is split.
func wrapText(s string, width int) []string {
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

// paragraph writes prose wrapped between words to the writer's width, the first line after
// first, the others after rest (a hanging indent: "  - " then "    ").
func (e *errWriter) paragraph(first, rest, text string) {
	e.wrapped(first, rest, text, func(s string, w int) []string { return strings.Split(ansi.Wrap(s, w, ""), "\n") })
}

// list writes a list ("a; b; c") wrapped between its items where it can (see wrapText).
func (e *errWriter) list(first, rest, text string) {
	e.wrapped(first, rest, text, wrapText)
}

func (e *errWriter) wrapped(first, rest, text string, wrap func(string, int) []string) {
	w := e.width - max(cellWidth(first), cellWidth(rest))
	// Escaped before it is measured (escapes take room), as table cells are.
	for i, l := range wrap(safetext.Line(text), max(w, minCut)) {
		if i == 0 {
			e.line(strings.TrimRight(first+l, " "))
		} else {
			e.line(strings.TrimRight(rest+l, " "))
		}
	}
}

// WriteParagraph writes text wrapped to width cells (0: DefaultWidth), its first line after
// first and the others after rest: for the lines the command line prints around a report.
func WriteParagraph(w io.Writer, first, rest, text string, width int) error {
	ew := newErrWriter(w, width)
	ew.paragraph(first, rest, text)
	return ew.err
}
