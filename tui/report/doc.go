// Package report writes the static outputs of a run's snapshot for people and for tools: the
// text report (WriteReport), a JSON summary (WriteJSON), the per-second timeline as CSV
// (WriteCSV), one self-contained HTML page with SVG charts (WriteHTML), a find-limit search
// (WriteSearch), a run's thresholds (WriteThresholds) and runs side by side with deltas
// (WriteCompare, its stage matching in compare.go).
//
// Each section of a report builds its table once, as a textfmt.Table: the text report lays it
// out in terminal cells (textfmt), and the HTML page draws the same table (html.tmpl). The
// charts are gonum/plot's, drawn to SVG here: the live UI (package tui) does not import this
// package, so it never carries them.
//
// Everything here only reads a snapshot; no numbers are computed that the engine does not own,
// beyond sums and shares of its counters for display.
package report
