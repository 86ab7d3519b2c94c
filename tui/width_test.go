package tui

import (
	"bytes"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// TestLinesFitWidth: at 80 columns (a pipe) no line of the headless output of a run or of a
// search is wider than 80 terminal cells, whatever the run holds; on wider terminals, none is
// wider than the terminal. (The reports' are report.TestTextOutputsFitWidth.)
func TestLinesFitWidth(t *testing.T) {
	fixture.CheckOutputsFit(t, lineOutputs)
}

// lineOutputs writes the headless lines of a rich run and of a search at width.
func lineOutputs(t *testing.T, width int) map[string]string {
	t.Helper()
	rich := fixture.RichSnapshot()
	var lines, searchLines bytes.Buffer
	p := NewLinePrinter(&lines, width)
	p.Header("production-mainnet-getBalance-with-a-long-name", "https://mainnet.example.com/v1/a/long/path/of/the/node", engine.ModeOpen)
	p.Update(&engine.Stats{Timeline: []engine.Row{richRow()}, Events: rich.Events, Done: true})
	sp := NewSearchLinePrinter(&searchLines, width)
	pr := fixture.SearchProgress()
	pr.SLO = rich.Search.SLO
	sp.Header("production-mainnet-getBalance-with-a-long-name", "https://mainnet.example.com/v1/a/long/path/of/the/node", pr)
	sp.Update(&search.Progress{Probes: rich.Search.Probes, Current: &search.Current{Phase: "burst", Rate: 100000, Settle: time.Minute, Measure: time.Second}})
	sp.Final(rich.Search)
	for _, err := range []error{p.Err(), sp.Err()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{"headless lines": lines.String(), "search lines": searchLines.String()}
}

// richRow is a second at the extremes: every column at its widest, and saturated.
func richRow() engine.Row {
	return engine.Row{T: 9999, Stage: 11, TargetRate: 256, RPS: 99999, OK: 99999, Limited: 99999, Failed: 99999,
		Status: map[string]int64{"200": 999_999}, RPCErrors: map[string]int64{"-32005": 99_999},
		Inflight: 99999, Dropped: 99999, Saturated: true,
		Latency: engine.RowLatency{P50: 59_999, P90: 59_999, P99: 59_999, Max: 60_000}}
}
