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
// colours, no line wider than width terminal cells (0: DefaultWidth, 80), so it pastes into an
// issue or a chat unchanged; a wider terminal gives long messages more room.
func WriteReport(w io.Writer, s *engine.Snapshot, width int) error {
	if s == nil {
		return errors.New("write report: no snapshot to report")
	}
	ew := textfmt.NewWriter(w, width)
	writeHeader(ew, s)
	writeSearchSection(ew, s.Search) // a find-limit run: its answer first, the probes' numbers below
	writeTotals(ew, s)
	writeSaturation(ew, s.SaturatedSeconds)
	writeLatency(ew, &s.Totals)
	writeStages(ew, s)
	writeRequests(ew, &s.Totals)
	writeStatuses(ew, &s.Totals)
	writeTransportErrors(ew, &s.Totals)
	writeRPCErrors(ew, &s.Totals, s.RPCMessages)
	writeCallFaults(ew, &s.Totals)
	writeRateLimitHeaders(ew, s.RateLimitHeaders)
	writeEvents(ew, s.Events)
	writeInvariant(ew, s)
	writeThresholdsSection(ew, s.Thresholds)
	if ew.Err() != nil {
		return fmt.Errorf("write report: %w", ew.Err())
	}
	return nil
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func writeHeader(ew *textfmt.Writer, s *engine.Snapshot) {
	ew.Line("rpcstress report: " + runtext.ProfileName(s.Profile))
	t := textfmt.NewTable("ll").GiveWay(1, true)
	t.Add("target", s.Target)
	t.Add("mode", runtext.ModeText(s.Mode))
	t.Add("started", formatTime(s.StartedAt))
	ended := formatTime(s.EndedAt)
	if s.EndedAt.IsZero() {
		ended = "- (partial run: not ended)"
	}
	t.Add("ended", ended)
	t.Add("duration", textfmt.Seconds(runtext.WallSeconds(s)))
	reason := s.EndReason
	if reason == "" {
		reason = "-"
	}
	t.Add("end reason", reason)
	if by := strings.TrimSpace(s.Tool.Name + " " + s.Tool.Version); s.Host != "" || by != "" {
		if by != "" {
			by = "  (" + by + ")"
		}
		t.Add("host", strings.TrimSpace(s.Host+by))
	}
	ew.Table(t, "  ")
}

func writeTotals(ew *textfmt.Writer, s *engine.Snapshot) {
	tot := &s.Totals
	secs := runtext.RunSeconds(s)
	ew.Line("")
	ew.Line("Totals")
	t := textfmt.NewTable("ll").GiveWay(1, true)
	t.Add("requests", fmt.Sprintf("scheduled %d  sent %d  completed %d  inflight %d  dropped %d",
		tot.Scheduled, tot.Sent, tot.Completed, tot.Inflight, tot.Dropped))
	t.Add("throughput", fmt.Sprintf("%s req/s completed over %s", textfmt.RPS(tot.RPS), textfmt.Seconds(secs)))
	// Shares are of the completed answers, as everywhere in the report.
	t.Add("outcomes", fmt.Sprintf("ok %d (%s)  limited %d (%s)  failed %d (%s)",
		tot.OK, textfmt.Pct(tot.OK, tot.Completed), tot.Limited, textfmt.Pct(tot.Limited, tot.Completed),
		tot.Failed, textfmt.Pct(tot.Failed, tot.Completed)))
	if calls := callsText(tot.Calls); calls != "" {
		t.Add("calls", calls) // JSON-RPC calls: a batch of N is one request and N calls
	}
	t.Add("transfer", fmt.Sprintf("in %s (%s)  out %s (%s)",
		textfmt.Bytes(float64(tot.BytesIn)), textfmt.BytesRate(tot.BytesIn, secs),
		textfmt.Bytes(float64(tot.BytesOut)), textfmt.BytesRate(tot.BytesOut, secs)))
	c := tot.Connections
	t.Add("connections", fmt.Sprintf("%d dialed, dial time mean %s ms, max %s ms (not in latency)",
		c.Dialed, textfmt.Ms(c.DialMean), textfmt.Ms(c.DialMax)))
	ew.Table(t, "  ")
}

// writeSaturation warns when the generator fell behind: then part of the measured latency is the
// tester's own, and the target may be faster than the numbers say.
func writeSaturation(ew *textfmt.Writer, seconds int) {
	if seconds <= 0 {
		return
	}
	ew.Line("")
	ew.Paragraph("! ", "  ", fmt.Sprintf("tester saturated for %d s: the generator could not keep its own "+
		"schedule, so those seconds' latency includes the tester's own delay. Give the tester more "+
		"CPU, lower the rate, or split the load across machines (--shard) to measure the target alone.", seconds))
}
