package textfmt

import (
	"strings"
	"testing"
)

func TestTableWrite(t *testing.T) {
	tests := []struct {
		name  string
		align string
		rows  [][]string
		width int
		want  string
	}{
		{
			name:  "labels left, numbers right, two-space gap",
			align: "lr",
			rows:  [][]string{{"code", "count"}, {"200", "5"}, {"429", "12345"}},
			width: 100,
			want:  "  code  count\n  200       5\n  429   12345\n",
		},
		{
			name:  "a tight width shrinks the gap to one space first",
			align: "lr",
			rows:  [][]string{{"abc", "123"}},
			width: 9,
			want:  "  abc 123\n",
		},
		{
			name:  "a left last column is cut to fit",
			align: "rl",
			rows:  [][]string{{"-32602", "Invalid params: a long message from the node"}},
			width: 24,
			want:  "  -32602 Invalid params…\n",
		},
		{
			name:  "no trailing spaces after a short last cell",
			align: "ll",
			rows:  [][]string{{"a", "long value"}, {"b", ""}},
			width: 100,
			want:  "  a  long value\n  b\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := NewTable(tt.align)
			for _, r := range tt.rows {
				tb.Add(r...)
			}
			checkLines(t, tb.Lines("  ", tt.width), tt.want)
		})
	}
}

func TestTableGiveWay(t *testing.T) {
	tests := []struct {
		name  string
		setup func() *Table
		width int
		want  string
	}{
		{
			// A sentence wraps under itself instead of losing its end.
			name: "a wrapped column keeps every word",
			setup: func() *Table {
				tb := NewTable("ll").GiveWay(1, true)
				tb.Add("outcomes", "ok 734 (56.5%)  limited 405 (31.2%)  failed 161 (12.4%)")
				return tb
			},
			width: 50,
			want:  "  outcomes  ok 734 (56.5%)  limited 405 (31.2%)\n            failed 161 (12.4%)\n",
		},
		{
			// A file:line loses its start, never its line number.
			name: "a left-cut column keeps its end",
			setup: func() *Table {
				tb := NewTable("ll").GiveWayLeft(1)
				tb.Add("p99", "production-mainnet-getBalance.toml:113")
				return tb
			},
			width: 30,
			want:  "  p99  …et-getBalance.toml:113\n",
		},
		{
			// A row without numbers (a stage that never ran) says so across the columns.
			name: "a span takes the place of the columns after its cells",
			setup: func() *Table {
				tb := NewTable("rrrr")
				tb.Add("1", "250/s", "8s", "250.0")
				tb.AddSpan("did not run (planned 8s)", "2", "500/s")
				return tb
			},
			width: 80,
			want:  "  1  250/s  8s  250.0\n  2  500/s  did not run (planned 8s)\n",
		},
		{
			// The widest giving column gives first; the numbers never do.
			name: "the widest of two columns gives way first",
			setup: func() *Table {
				tb := NewTable("lrl").GiveWay(0, false).GiveWay(2, false)
				tb.Add("a name of twenty-four ce", "12345", "a message of twenty-six cel")
				return tb
			},
			width: 55,
			want:  "  a name of twenty-four…  12345  a message of twenty-s…\n",
		},
		{
			// When the giving column would drop below what it keeps, the gaps shrink first,
			// and what that frees is not taken from it.
			name: "the gap shrinks before a column drops below its keep",
			setup: func() *Table {
				tb := NewTable("lrrr").GiveWay(0, false)
				tb.Add("getSlot+getBalance x2", "123", "456", "789")
				return tb
			},
			width: 35,
			want:  "  getSlot+getBalance x2 123 456 789\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLines(t, tt.setup().Lines("  ", tt.width), tt.want)
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
		t.Run(tt.name, func(t *testing.T) {
			got := Wrap(tt.text, tt.width)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
