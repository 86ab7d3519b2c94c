package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/tui/internal/fixture"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// TestTextOutputsFitWidth: at 80 columns (a pipe) no line of any text report is wider than 80
// terminal cells, whatever the run holds; on wider terminals, none is wider than the terminal.
// (The headless lines' are tui.TestLinesFitWidth.)
func TestTextOutputsFitWidth(t *testing.T) {
	for _, width := range []int{textfmt.DefaultWidth, 100, 132} {
		outputs := textOutputs(t, width)
		for name, text := range outputs {
			t.Run(fmt.Sprintf("%s at %d", name, width), func(t *testing.T) {
				if strings.TrimSpace(text) == "" {
					t.Fatal("no output")
				}
				fixture.CheckWidth(t, text, width)
			})
		}
	}
}

// textOutputs writes every text report at width: the report of a rich run, a compare of three
// runs and of two, and a search's report.
func textOutputs(t *testing.T, width int) map[string]string {
	t.Helper()
	out := map[string]string{}
	write := func(name string, f func(*bytes.Buffer) error) {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b.String()
	}
	rich := fixture.RichSnapshot()
	write("report", func(b *bytes.Buffer) error { return WriteReport(b, rich, width) })
	slower, short := fixture.RichSnapshot(), fixture.RichSnapshot()
	fixture.ScaleLatency(&slower.Totals, 1.5)
	short.Stages = short.Stages[:2]
	runs := []CompareRun{{File: "runs/production-mainnet-getBalance-20261123T093020Z.json", Snapshot: rich},
		{File: "/home/operator/benchmarks/2026/november/runs/getBalance-20261123T103020Z.json", Snapshot: slower},
		{File: "c.json", Snapshot: short}}
	write("compare of 3", func(b *bytes.Buffer) error { return WriteCompare(b, runs, width) })
	write("compare of 2", func(b *bytes.Buffer) error { return WriteCompare(b, runs[:2], width) })
	write("search report", func(b *bytes.Buffer) error { return WriteSearch(b, rich.Search, width) })
	return out
}
