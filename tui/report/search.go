package report

import (
	"io"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// WriteSearch writes a find-limit search for people: the SLO and settings, one row per probe,
// the answer (highest rate that met the SLO, first that did not and why) and the limiter
// estimate. Plain text in width cells (0: textfmt.DefaultWidth), like the report it is part of.
func WriteSearch(w io.Writer, r *engine.SearchResult, width int) error {
	ew := textfmt.NewWriter(w, width)
	writeSearchSection(ew, r)
	return ew.Err()
}

// writeSearchSection draws the tables the HTML page draws too (runtext's), laid out as one
// section under its own heading: the tables' captions are the page's.
func writeSearchSection(ew *textfmt.Writer, r *engine.SearchResult) {
	if r == nil {
		return
	}
	ew.Line("")
	ew.Line("Find the limit")
	ew.Table(runtext.SettingsTable(r), "  ")
	ew.Line("")
	if probes := runtext.ProbeTable(r); len(probes.Rows) > 0 {
		ew.Table(probes, "  ")
	} else {
		ew.Line("  " + probes.Empty)
	}
	ew.Line("")
	runtext.WriteAnswer(ew, r)
	runtext.WriteLimiter(ew, r.Limiter)
}
