package tui

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
			var b strings.Builder
			tb := newTable(tt.align)
			for _, r := range tt.rows {
				tb.add(r...)
			}
			ew := &errWriter{w: &b}
			tb.write(ew, "  ", tt.width)
			if ew.err != nil {
				t.Fatal(ew.err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}
