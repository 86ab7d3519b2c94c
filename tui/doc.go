// Package tui is rpcstress's live UI: the dashboard of a run and of a find-limit search, and
// the headless per-second lines printed instead when output is not a terminal. The static
// outputs of a finished run (the text, JSON, CSV and HTML reports, compare) are package
// tui/report; what both show alike (numbers in words, tables, a search's answer) is in
// tui/textfmt and tui/runtext, so the dashboard never pulls in the HTML and chart code.
//
// The dashboard (NewDashboard) is a Bubble Tea v2 model. It pulls the engine's latest immutable
// engine.Stats on its own frame tick (DashboardOptions.FPS, 10 by default), so its cost follows
// the frame rate, never the request rate, and the engine never waits for it. Its root Update
// routes messages to their handlers, then, if one changed what the screen shows, lays the
// panes (header, throughput, latency, status codes, errors, requests, events, stages, footer)
// out and draws the frame; each pane draws itself from one shared view of the run and the room
// it was given. View only hands the frame over: it changes nothing, however often Bubble Tea
// asks (TestDashboardLayoutEverySize holds it to that, by fingerprint). Keys
// are one KeyMap (keys.go) that also feeds the help; colours are one Styles (styles.go). Every
// key action goes through an engine.Controller, which records it as an event of the run.
//
// Everything here only reads what the engine publishes (an immutable engine.Stats while a run is
// live, an engine.Snapshot afterwards); no numbers are computed that the engine does not own,
// beyond sums and shares of its counters for display.
package tui
