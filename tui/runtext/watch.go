package runtext

import (
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// CPU writes a process's CPU as top does, to a tenth of a point at most: "85.2%", "210%",
// "0.3%" (100 % is one core).
func CPU(pct float64) string { return textfmt.TrimZeros(textfmt.Sig(pct, 3, 1)) + "%" }

// SelfBusyText says that rpcstress used more than about 80 % of its cores, at cpuPct: then
// the tester measures itself as much as the node, which the dashboard and the report say.
func SelfBusyText(w *engine.WatchInfo, cpuPct float64) string {
	return fmt.Sprintf("rpcstress itself used %s CPU, over 80%% of its %d cores: it measures itself "+
		"as much as the node; lower the rate or split it across machines (--shard)", CPU(cpuPct), w.Cores)
}

// SelfBusyShort is SelfBusyText in a line of the dashboard: "rpcstress used 175% CPU, over
// 80% of its 2 cores: it measures itself too".
func SelfBusyShort(w *engine.WatchInfo, cpuPct float64) string {
	return fmt.Sprintf("rpcstress used %s CPU, over 80%% of its %d cores: it measures itself too", CPU(cpuPct), w.Cores)
}

// ScrapeText sums up how scraping a node's metrics went: "60 scrapes, 2 failed (last: HTTP
// 503), 7.5 ms each".
func ScrapeText(m *engine.WatchedMetrics) string {
	s := fmt.Sprintf("%d scrapes", m.Scrapes)
	if m.Failures > 0 {
		s += fmt.Sprintf(", %d failed (last: %s)", m.Failures, m.LastError)
	}
	if m.ScrapeMs > 0 {
		s += fmt.Sprintf(", %s ms each", textfmt.Ms(m.ScrapeMs))
	}
	return s
}

// SeriesValue writes a series' value: a counter per second ("1250/s"), a gauge as it is.
func SeriesValue(kind string, v float64) string {
	if kind == engine.SeriesCounter {
		return textfmt.PerSec(v)
	}
	if v >= 1e6 || v <= -1e6 {
		return textfmt.TrimZeros(fmt.Sprintf("%.0f", v))
	}
	return textfmt.TrimZeros(textfmt.Sig(v, 6, 3))
}

// ProcText describes a watched process for a note: "geth: pid 4242 (geth --dev …)", and when
// it exited.
func ProcText(p *engine.WatchedProc) string {
	s := fmt.Sprintf("%s: pid %d (%s)", p.Label, p.PID, textfmt.Truncate(p.Command, 40))
	if p.ExitedAt != nil {
		s += ", exited at " + textfmt.Seconds(*p.ExitedAt) + ": its numbers stop there"
	}
	return s
}
