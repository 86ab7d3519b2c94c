package textfmt

import (
	"slices"
	"strings"
	"testing"
)

// withRows adds the rows to t.
func withRows(t *Table, rows ...[]string) *Table {
	for _, r := range rows {
		t.Add(r...)
	}
	return t
}

// withSpan adds a row of cells and a span after them to t.
func withSpan(t *Table, span string, cells ...string) *Table {
	t.AddSpan(span, cells...)
	return t
}

type row = []string

func TestTableLines(t *testing.T) {
	long := row{"-32602", "Invalid params: a long message from the node"}
	tests := []struct {
		name  string
		table *Table
		width int
		want  string
	}{
		// Labels left, numbers right so that digits line up; two spaces between columns.
		{"labels left, numbers right, two-space gap", withRows(NewTable("lr"), row{"code", "count"}, row{"200", "5"}, row{"429", "12345"}),
			100, "  code  count\n  200       5\n  429   12345\n"},
		// A head is laid out as the first row, aligned as its column.
		{"a head leads", withRows(NewTable("lr", "code", "count"), row{"429", "12345"}), 100, "  code  count\n  429   12345\n"},
		// When the cells do not fit, the gap shrinks to one space first.
		{"a tight width shrinks the gap to one space first", withRows(NewTable("lr"), row{"abc", "123"}), 9, "  abc 123\n"},
		// A message in the last column is cut with a mark.
		{"a left last column is cut to fit", withRows(NewTable("rl"), long), 24, "  -32602 Invalid params…\n"},
		// No width: as wide as the cells make it, nothing cut.
		{"no width lays out whole", withRows(NewTable("rl"), long), 0, "  -32602  Invalid params: a long message from the node\n"},
		// Lines end where their text does.
		{"no trailing spaces after a short last cell", withRows(NewTable("ll"), row{"a", "long value"}, row{"b", ""}), 100, "  a  long value\n  b\n"},
		// A sentence wraps under itself instead of losing its end.
		{"a wrapped column keeps every word", withRows(NewTable("ll").GiveWay(1, true), row{"outcomes", "ok 734 (56.5%)  limited 405 (31.2%)  failed 161 (12.4%)"}),
			50, "  outcomes  ok 734 (56.5%)  limited 405 (31.2%)\n            failed 161 (12.4%)\n"},
		// A file:line loses its start, never its line number.
		{"a left-cut column keeps its end", withRows(NewTable("ll").GiveWayLeft(1), row{"p99", "production-mainnet-getBalance.toml:113"}),
			30, "  p99  …et-getBalance.toml:113\n"},
		// A row without numbers (a stage that never ran) says so across the columns.
		{"a span takes the place of the columns after its cells",
			withSpan(withRows(NewTable("rrrr"), row{"1", "250/s", "8s", "250.0"}), "did not run (planned 8s)", "2", "500/s"),
			80, "  1  250/s  8s  250.0\n  2  500/s  did not run (planned 8s)\n"},
		// The widest giving column gives first; the numbers never do.
		{"the widest of two columns gives way first",
			withRows(NewTable("lrl").GiveWay(0, false).GiveWay(2, false), row{"a name of twenty-four ce", "12345", "a message of twenty-six cel"}),
			55, "  a name of twenty-four…  12345  a message of twenty-s…\n"},
		// When the giving column would drop below what it keeps, the gaps shrink first, and
		// what that frees is not taken from it.
		{"the gap shrinks before a column drops below its keep",
			withRows(NewTable("lrrr").GiveWay(0, false), row{"getSlot+getBalance x2", "123", "456", "789"}),
			35, "  getSlot+getBalance x2 123 456 789\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLines(t, tt.table.Lines("  ", tt.width), tt.want)
		})
	}
}

// TestSection: a table as part of a report: a blank line, the caption, the rows under it and
// its note; "Title: Empty" when it has no rows; nothing when it says nothing then.
func TestSection(t *testing.T) {
	full := withRows(NewTable("lr", "code", "count"), row{"200", "5"})
	full.Caption, full.Title, full.Note = "HTTP status (share of 5 completed)", "HTTP status", "all of them"
	empty := NewTable("lr", "code", "count")
	empty.Caption, empty.Title, empty.Empty = "HTTP status (share of 0 completed)", "HTTP status", "none received"
	tests := []struct {
		name  string
		table *Table
		want  string
	}{
		{"rows", full, "\nHTTP status (share of 5 completed)\n  code  count\n  200       5\n  all of them\n"},
		{"no rows", empty, "\nHTTP status: none received\n"},
		{"nothing to say", NewTable("lr"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			NewWriter(&b, 0).Section(tt.table)
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}

// checkLines compares laid-out lines with the text they should make, one "\n" a line.
func checkLines(t *testing.T, lines []string, want string) {
	t.Helper()
	if got := strings.Join(lines, "\n") + "\n"; got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestWrapText(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		width int
		want  []string
	}{
		// What fits stays one line.
		{"fits", "pass", 10, []string{"pass"}},
		// Parts separated by two spaces break between parts.
		{"parts", "ok 1 (1%)  limited 2 (2%)  failed 3 (3%)", 26, []string{"ok 1 (1%)  limited 2 (2%)", "failed 3 (3%)"}},
		// A list of breaches breaks after a "; ", which stays with its item.
		{"breaches", "FAIL p99 65.6 ms > 50 ms; limited 50% > 1%", 26, []string{"FAIL p99 65.6 ms > 50 ms;", "limited 50% > 1%"}},
		// Prose breaks between words.
		{"words", "the node keeps up (answers ≥ 97% of sends)", 20, []string{"the node keeps up", "(answers ≥ 97% of", "sends)"}},
		// A word wider than the line (a URL) is split rather than cut.
		{"long word", "http://127.0.0.1:8899/a/b", 10, []string{"http://127", ".0.0.1:889", "9/a/b"}},
		// Wide characters count two cells each.
		{"wide", "残高を取得する", 8, []string{"残高を取", "得する"}},
	}
	for _, tt := range tests {
		if got := Wrap(tt.text, tt.width); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
