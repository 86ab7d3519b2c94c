package tui

import "github.com/rpcstress/rpcstress/engine"

// rowAnswered is how many answers came back in a second of the timeline.
func rowAnswered(r *engine.Row) int64 { return r.OK + r.Limited + r.Failed }

// rowEmpty says a second holds nothing at all: no answer, no drop, nothing in flight.
func rowEmpty(r *engine.Row) bool {
	return rowAnswered(r) == 0 && r.Dropped == 0 && r.Inflight == 0
}

// reportedRows is the timeline as the outputs show it: without a last row that holds nothing.
// A run that ends just past a whole second (a plan of 8 s ends at 8.0003 s) closes that sliver
// of a ninth second as a row of zeros, which would read as a second with 0 rps.
func reportedRows(rows []engine.Row) []engine.Row {
	if n := len(rows); n > 0 && rowEmpty(&rows[n-1]) {
		return rows[:n-1]
	}
	return rows
}
