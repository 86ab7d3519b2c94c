package report

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// WriteReport writes the static text report of a finished (or partial) run: plain text, no
// colours, no line wider than width terminal cells (0: textfmt.DefaultWidth, 80), so it pastes
// into an issue or a chat unchanged; a wider terminal gives long messages more room.
func WriteReport(w io.Writer, s *engine.Snapshot, width int) error {
	if s == nil {
		return errors.New("write report: no snapshot to report")
	}
	ew := textfmt.NewWriter(w, width)
	ew.Line("rpcstress report: " + runtext.ProfileName(s.Profile))
	ew.Table(headerTable(s), "  ")
	writeSearchSection(ew, s.Search) // a find-limit run: its answer first, the probes' numbers below
	if len(s.Targets) > 0 {
		writeTargetsReport(ew, s)
	} else {
		writeRunSections(ew, s, detailTables(s))
	}
	writeThresholdsSection(ew, s.Thresholds)
	if ew.Err() != nil {
		return fmt.Errorf("write report: %w", ew.Err())
	}
	return nil
}

// writeRunSections writes the sections of one target's numbers, a run's or one target's of
// several: its totals, the tester's saturation, latency, then tables, then the invariant.
func writeRunSections(ew *textfmt.Writer, s *engine.Snapshot, tables []*textfmt.Table) {
	ew.Section(totalsTable(s))
	if s.SaturatedSeconds > 0 {
		ew.Line("")
		ew.Paragraph("! ", "  ", "tester "+saturatedText(s.SaturatedSeconds)+" Give the tester more CPU, lower "+
			"the rate, or split the load across machines (--shard) to measure the target alone.")
	}
	ew.Section(latencyTable(&s.Totals))
	for _, t := range tables {
		ew.Section(t)
	}
	writeInvariant(ew, s)
}

// saturatedText warns that the generator fell behind: then part of the measured latency is the
// tester's own, and the target may be faster than the numbers say.
func saturatedText(seconds int) string {
	return fmt.Sprintf("saturated for %d s: the generator could not keep its own schedule, so those "+
		"seconds' latency includes the tester's own delay.", seconds)
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// headerTable says what ran, against what, when, for how long and where; a shard or a merge of
// several runs says so.
func headerTable(s *engine.Snapshot) *textfmt.Table {
	t := textfmt.NewTable("ll").GiveWay(1, true)
	if len(s.Targets) == 0 {
		t.Add("target", s.Target)
	}
	named := textfmt.NewTable("ll") // each name and URL, the URLs lined up
	for _, tr := range s.Targets {
		named.Add(tr.Name, tr.Target)
	}
	for i, l := range named.Lines("", 0) { // by letter, as the dashboard names them
		t.Add("target "+runLabel(i), l)
	}
	t.Add("mode", runtext.ModeText(s.Mode))
	t.Add("started", formatTime(s.StartedAt))
	ended := formatTime(s.EndedAt)
	if s.EndedAt.IsZero() {
		ended = "- (partial run: not ended)"
	}
	t.Add("ended", ended)
	t.Add("duration", textfmt.Seconds(runtext.WallSeconds(s)))
	t.Add("end reason", orDash(s.EndReason))
	if by := strings.TrimSpace(s.Tool.Name + " " + s.Tool.Version); s.Host != "" || by != "" {
		if by != "" {
			by = "  (" + by + ")"
		}
		t.Add("host", strings.TrimSpace(s.Host+by))
	}
	if s.Shard != "" {
		t.Add("shard", s.Shard)
	}
	if len(s.Merged) > 0 {
		t.Add("merged from", strings.Join(s.Merged, ", "))
	}
	return t
}

// totalsTable is the run's totals in the text report, one labelled line each. The HTML page,
// which has the room, shows them as one row of numbers (htmlTotals).
func totalsTable(s *engine.Snapshot) *textfmt.Table {
	tot := &s.Totals
	secs := runtext.RunSeconds(s)
	t := textfmt.NewTable("ll").GiveWay(1, true)
	t.Caption = "Totals"
	t.Add("requests", fmt.Sprintf("scheduled %d  sent %d  completed %d  inflight %d  dropped %d",
		tot.Scheduled, tot.Sent, tot.Completed, tot.Inflight, tot.Dropped))
	t.Add("throughput", fmt.Sprintf("%s req/s completed over %s", textfmt.RPS(tot.RPS), textfmt.Seconds(secs)))
	// Shares are of the completed answers, as everywhere in the report.
	t.Add("outcomes", fmt.Sprintf("ok %s  limited %s  failed %s", countPct(tot.OK, tot.Completed),
		countPct(tot.Limited, tot.Completed), countPct(tot.Failed, tot.Completed)))
	if inv := invalidText(tot); inv != "" {
		t.Add("invalid", inv)
	}
	if calls := callsText(tot.Calls); calls != "" {
		t.Add("calls", calls) // JSON-RPC calls: a batch of N is one request and N calls
	}
	if cost := costText(tot); cost != "" {
		t.Add("cost units", cost)
	}
	t.Add("transfer", fmt.Sprintf("in %s (%s)  out %s (%s)",
		textfmt.Bytes(float64(tot.BytesIn)), textfmt.BytesRate(tot.BytesIn, secs),
		textfmt.Bytes(float64(tot.BytesOut)), textfmt.BytesRate(tot.BytesOut, secs)))
	t.Add("connections", dialText(tot.Connections))
	return t
}

// countPct is a count with its share of total: "1695 (68.2%)".
func countPct(n, total int64) string {
	return fmt.Sprintf("%d (%s)", n, textfmt.Pct(n, total))
}

// dialText is what connecting cost: "64 dialed, dial time mean 0.842 ms, max 3.20 ms (not in
// latency)", and for WebSocket connections dialed again "; 12 re-dialed".
func dialText(c engine.Connections) string {
	s := fmt.Sprintf("%d dialed, dial time mean %s ms, max %s ms (not in latency)",
		c.Dialed, textfmt.Ms(c.DialMean), textfmt.Ms(c.DialMax))
	if c.Redialed > 0 {
		s += fmt.Sprintf("; %d re-dialed", c.Redialed)
	}
	return s
}
