package report

import (
	"io"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// TestWriteSearchGolden: the report section of a search holds its settings, its probes, the
// answer and the limiter.
func TestWriteSearchGolden(t *testing.T) {
	pr := fixture.SearchProgress()
	res := &engine.SearchResult{Settings: pr.Settings, SLO: pr.SLO, Probes: pr.Probes, EndReason: "converged",
		Answer: engine.SearchAnswer{Found: true, Rate: 1000, Goodput: 1000, FirstBad: 2000, GapPct: 100, Text: "1000/s met the SLO",
			Breaches: []engine.SearchBreach{{Clause: "limited", Measured: 49.98, Bound: 1, Unit: "%", Text: "limited 50% > 1%"}}},
		Limiter: &engine.LimiterEstimate{Kind: "none", Notes: []string{"no limiter detected"}}}
	out := written(t, func(w io.Writer) error { return WriteSearch(w, res, 0) })
	golden.RequireEqual(t, []byte(out))
	fixture.CheckWidth(t, out, textfmt.DefaultWidth)
}
