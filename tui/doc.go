// Package tui renders runs for people: the dashboard (later), the headless per-second lines, and
// static reports of snapshots.
//
// Everything here only reads what the engine publishes (an immutable engine.Stats while a run is
// live, an engine.Snapshot afterwards); no numbers are computed that the engine does not own,
// beyond sums and shares of its counters for display.
package tui
