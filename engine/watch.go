package engine

import (
	"context"
	"time"
)

// A Watcher reads the resources of what the load lands on, beside the run: processes on this
// machine (their CPU, memory, threads, files, disk), rpcstress itself, and a node's Prometheus
// metrics. Package watch implements it; the engine only runs it and files its readings in the
// timeline, so the load's numbers and the node's stay one row per second.
type Watcher interface {
	// Run reads once a second on the run's seconds (start + 1 s, start + 2 s …) until ctx ends,
	// then once more for the part of a second the run ended in. What happens to the watched
	// (a process that exits) is recorded through event, as the run's events.
	Run(ctx context.Context, start time.Time, event func(kind, detail string))
	// At is the reading of second t of the run (what happened during [t, t+1)), or nil when
	// there is none (not read yet, or read too late to tell). Never modified once returned.
	At(t int) *WatchRow
	// Info says what is watched, as of now.
	Info() *WatchInfo
}

// WatchRow is what the watchers read over one second of the run (Row.Watch).
type WatchRow struct {
	// Procs are the watched processes, in WatchInfo.Procs order; nil for one not read in that
	// second (it had exited).
	Procs []*ProcUse `json:"procs,omitempty"`
	// Self is rpcstress's own process.
	Self *ProcUse `json:"self,omitempty"`
	// Series are the node's metrics, in WatchInfo.Metrics.Series order, as last scraped when
	// the second was read: a counter as its rate per second, a gauge as its value; nil for a
	// series not found (or a counter scraped only once so far).
	Series []*float64 `json:"series,omitempty"`
	// MetricsStale is set when the node's last scrape failed, so Series are older than the
	// second.
	MetricsStale bool `json:"metrics_stale,omitempty"`
}

// ProcUse is one process's resources over one second.
type ProcUse struct {
	// CPU is as top shows it: the CPU time it used over the wall time, in percent, so 100 is
	// one core busy all the second and a process on four cores can reach 400.
	CPU float64 `json:"cpu_pct"`
	// RSS is its resident memory, in bytes.
	RSS int64 `json:"rss_bytes"`
	// Threads is how many threads it had.
	Threads int `json:"threads"`
	// FDs is how many files (sockets included) it had open; nil when this user may not read
	// them (another user's process).
	FDs *int `json:"fds,omitempty"`
	// ReadBps and WriteBps are its storage reads and writes in bytes per second (not the
	// page cache's: what reached the disk); nil when not readable.
	ReadBps  *float64 `json:"read_bps,omitempty"`
	WriteBps *float64 `json:"write_bps,omitempty"`
}

// WatchInfo says what a run watched (Snapshot.Watch, Stats.Watch).
type WatchInfo struct {
	// Cores is how many cores rpcstress may use (GOMAXPROCS): its own CPU tops out at
	// 100 × Cores percent (see SelfBusy).
	Cores int `json:"cores"`
	// Procs are the processes watched.
	Procs []WatchedProc `json:"procs,omitempty"`
	// Metrics is the node's Prometheus endpoint; nil when none.
	Metrics *WatchedMetrics `json:"metrics,omitempty"`
	// Stages sums up each stage's readings (see StageWatch), in the plan's order: set in a
	// snapshot, not in the live view.
	Stages []StageWatch `json:"stages,omitempty"`
}

// WatchedProc is one process watched.
type WatchedProc struct {
	// Spec is how it was named: a pid, a process name or a pid file.
	Spec string `json:"spec"`
	// Label names it in the panes, the columns and the tables: its process name, made unique
	// in the run ("geth", "geth#2").
	Label string `json:"label"`
	PID   int    `json:"pid"`
	// Command is its command line, cut to a line.
	Command string `json:"command,omitempty"`
	// Note says what of it could not be read and why (another user's open files and disk
	// I/O); absent when everything could.
	Note string `json:"note,omitempty"`
	// ExitedAt is when it was found gone, in seconds since the start; absent while it ran.
	ExitedAt *float64 `json:"exited_at,omitempty"`
}

// WatchedMetrics is the node's Prometheus endpoint and how scraping it went.
type WatchedMetrics struct {
	// URL is the endpoint, as displayed (no userinfo, no query).
	URL string `json:"url"`
	// Series are the series shown, as named.
	Series []WatchedSeries `json:"series"`
	// Scrapes is how many scrapes were made, Failures how many of them failed, LastError why
	// the last failed one did.
	Scrapes   int64  `json:"scrapes"`
	Failures  int64  `json:"failures"`
	LastError string `json:"last_error,omitempty"`
	// ScrapeMs is the mean wall time of a successful scrape, in milliseconds: what reading the
	// endpoint costs, as seen from here.
	ScrapeMs float64 `json:"scrape_ms"`
}

// WatchedSeries is one series of the node's metrics, as the profile names it.
type WatchedSeries struct {
	// Selector is the name, with labels to pick among its series: name{label="value"}. All the
	// series that match are added up.
	Selector string `json:"selector"`
	// Kind is "counter" (shown as a rate per second) or "gauge"; empty until the series is
	// found.
	Kind string `json:"kind,omitempty"`
	// Matched is how many series the last successful scrape added up (0: not found).
	Matched int `json:"matched"`
}

// SelfLabel names rpcstress's own process beside the watched ones (WatchRow.Self) in every
// view: the pane, the tables, the CSV columns, the exported series.
const SelfLabel = "rpcstress"

// Kinds of a watched series.
const (
	SeriesCounter = "counter"
	SeriesGauge   = "gauge"
)

// selfBusyShare is the share of its cores above which a load generator measures itself: past
// it, the tester's own scheduling delays reach the latency it reports, and the node's CPU
// beside it is no longer the node under the planned load alone.
const selfBusyShare = 0.8

// SelfBusy reports whether rpcstress, at cpuPct percent CPU, used more than about 80 % of its
// cores: then the run measures the tester as much as the node, which every view says.
func (w *WatchInfo) SelfBusy(cpuPct float64) bool {
	return w != nil && w.Cores > 0 && cpuPct > selfBusyShare*100*float64(w.Cores)
}
