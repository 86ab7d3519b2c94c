// Package runtext says a run in words: the phrases, rows and small sections that the live UI
// (the dashboard and the per-second lines) and the static reports (package report) both show,
// each written once here. How a mode, an SLO, a probe's verdict, a limiter or an answer fault
// reads; which requests are listed first; which timeline rows are shown; a find-limit search's
// tables and answer; and the one-line summary of a run. The numbers themselves are written by
// package textfmt.
package runtext

import (
	"encoding/json"
	"sort"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// ModeText names a mode for people; an empty mode is the default, open loop.
func ModeText(m engine.Mode) string {
	switch m {
	case engine.ModeClosed:
		return "closed loop"
	case engine.ModeOpen, "":
		return "open loop"
	}
	return string(m)
}

// ProfileName reads the run's name from the snapshot's resolved profile, safe to show
// (safetext). Only the name is decoded: the rest of the profile belongs to package profiles
// and may change shape.
func ProfileName(raw json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &p) != nil || p.Name == "" {
		return "(unnamed)"
	}
	return safetext.Line(p.Name)
}

// RunSeconds is how long the run took: the span the totals were measured over, or the wall
// clock between start and end when the totals do not say.
func RunSeconds(s *engine.Snapshot) float64 {
	if s.Totals.DurationS > 0 {
		return s.Totals.DurationS
	}
	return startToEnd(s)
}

// WallSeconds is how long the run lasted, from start to end: the duration a report's header
// shows. It is the totals' span for a plain run; a find-limit run's totals count only its
// probes' measured windows (settling, the burst probe and the gaps between probes are not in
// them), so its header would otherwise read 21 s for a search that took 29.
func WallSeconds(s *engine.Snapshot) float64 {
	if secs := startToEnd(s); secs > 0 {
		return secs
	}
	return RunSeconds(s)
}

// startToEnd is the wall clock between the run's start and end; 0 when it has no end.
func startToEnd(s *engine.Snapshot) float64 {
	if !s.StartedAt.IsZero() && s.EndedAt.After(s.StartedAt) {
		return s.EndedAt.Sub(s.StartedAt).Seconds()
	}
	return 0
}

// StageRan says whether anything was scheduled in a stage: a run that ended early (stopped, cut
// by --requests, or a partial snapshot) lists the stages it never reached with zeros, which must
// not read as a 0 ms latency.
func StageRan(st *engine.StageStats) bool {
	return st.Summary.Scheduled > 0 || st.Summary.Completed > 0
}

// RowAnswered is how many answers came back in a second of the timeline.
func RowAnswered(r *engine.Row) int64 { return r.OK + r.Limited + r.Failed }

// rowEmpty says a second holds nothing at all: no answer, no drop, nothing in flight.
func rowEmpty(r *engine.Row) bool {
	return RowAnswered(r) == 0 && r.Dropped == 0 && r.Inflight == 0
}

// ReportedRows is the timeline as the outputs show it: without a last row that holds nothing.
// A run that ends just past a whole second (a plan of 8 s ends at 8.0003 s) closes that sliver
// of a ninth second as a row of zeros, which would read as a second with 0 rps.
func ReportedRows(rows []engine.Row) []engine.Row {
	if n := len(rows); n > 0 && rowEmpty(&rows[n-1]) {
		return rows[:n-1]
	}
	return rows
}

// RequestsByCount orders request names by completed count, most first, then by name.
func RequestsByCount(m map[string]engine.Summary) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := m[names[i]].Completed, m[names[j]].Completed
		if a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	return names
}

// InvariantMark is ✓ when the run's totals add up, ✗ otherwise.
func InvariantMark(tot *engine.Summary) string {
	if tot.CheckInvariant() != nil {
		return "✗"
	}
	return "✓"
}
