package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// WriteReport writes the static text report of a finished (or partial) run: plain text, no
// colours, no line wider than width terminal cells (0: DefaultWidth, 80), so it pastes into an
// issue or a chat unchanged; a wider terminal gives long messages more room.
func WriteReport(w io.Writer, s *engine.Snapshot, width int) error {
	if s == nil {
		return errors.New("write report: no snapshot to report")
	}
	ew := newErrWriter(w, width)
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
	if ew.err != nil {
		return fmt.Errorf("write report: %w", ew.err)
	}
	return nil
}

// profileName reads the run's name from the snapshot's resolved profile, safe to show
// (safetext). Only the name is decoded: the rest of the profile belongs to package profiles
// and may change shape.
func profileName(raw json.RawMessage) string {
	var p struct {
		Name string `json:"name"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &p) != nil || p.Name == "" {
		return "(unnamed)"
	}
	return safetext.Line(p.Name)
}

// runSeconds is how long the run took: the span the totals were measured over, or the wall
// clock between start and end when the totals do not say.
func runSeconds(s *engine.Snapshot) float64 {
	if s.Totals.DurationS > 0 {
		return s.Totals.DurationS
	}
	if !s.StartedAt.IsZero() && s.EndedAt.After(s.StartedAt) {
		return s.EndedAt.Sub(s.StartedAt).Seconds()
	}
	return 0
}

// wallSeconds is how long the run lasted, from start to end: the duration a report's header
// shows. It is the totals' span for a plain run; a find-limit run's totals count only its
// probes' measured windows (settling, the burst probe and the gaps between probes are not in
// them), so its header would otherwise read 21 s for a search that took 29.
func wallSeconds(s *engine.Snapshot) float64 {
	if !s.StartedAt.IsZero() && s.EndedAt.After(s.StartedAt) {
		return s.EndedAt.Sub(s.StartedAt).Seconds()
	}
	return runSeconds(s)
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func writeHeader(ew *errWriter, s *engine.Snapshot) {
	ew.line("rpcstress report: " + profileName(s.Profile))
	t := newTable("ll").giveWay(1, true)
	t.add("target", s.Target)
	t.add("mode", modeText(s.Mode))
	t.add("started", formatTime(s.StartedAt))
	ended := formatTime(s.EndedAt)
	if s.EndedAt.IsZero() {
		ended = "- (partial run: not ended)"
	}
	t.add("ended", ended)
	t.add("duration", formatSeconds(wallSeconds(s)))
	reason := s.EndReason
	if reason == "" {
		reason = "-"
	}
	t.add("end reason", reason)
	if by := strings.TrimSpace(s.Tool.Name + " " + s.Tool.Version); s.Host != "" || by != "" {
		if by != "" {
			by = "  (" + by + ")"
		}
		t.add("host", strings.TrimSpace(s.Host+by))
	}
	t.write(ew, "  ", ew.width)
}

func writeTotals(ew *errWriter, s *engine.Snapshot) {
	tot := &s.Totals
	secs := runSeconds(s)
	ew.line("")
	ew.line("Totals")
	t := newTable("ll").giveWay(1, true)
	t.add("requests", fmt.Sprintf("scheduled %d  sent %d  completed %d  inflight %d  dropped %d",
		tot.Scheduled, tot.Sent, tot.Completed, tot.Inflight, tot.Dropped))
	t.add("throughput", fmt.Sprintf("%s req/s completed over %s", formatRPS(tot.RPS), formatSeconds(secs)))
	// Shares are of the completed answers, as everywhere in the report.
	t.add("outcomes", fmt.Sprintf("ok %d (%s)  limited %d (%s)  failed %d (%s)",
		tot.OK, formatPct(tot.OK, tot.Completed), tot.Limited, formatPct(tot.Limited, tot.Completed),
		tot.Failed, formatPct(tot.Failed, tot.Completed)))
	if calls := callsText(tot.Calls); calls != "" {
		t.add("calls", calls) // JSON-RPC calls: a batch of N is one request and N calls
	}
	t.add("transfer", fmt.Sprintf("in %s (%s)  out %s (%s)",
		formatBytes(float64(tot.BytesIn)), formatBytesRate(tot.BytesIn, secs),
		formatBytes(float64(tot.BytesOut)), formatBytesRate(tot.BytesOut, secs)))
	c := tot.Connections
	t.add("connections", fmt.Sprintf("%d dialed, dial time mean %s ms, max %s ms (not in latency)",
		c.Dialed, formatMs(c.DialMean), formatMs(c.DialMax)))
	t.write(ew, "  ", ew.width)
}

// writeSaturation warns when the generator fell behind: then part of the measured latency is the
// tester's own, and the target may be faster than the numbers say.
func writeSaturation(ew *errWriter, seconds int) {
	if seconds <= 0 {
		return
	}
	ew.line("")
	ew.paragraph("! ", "  ", fmt.Sprintf("tester saturated for %d s: the generator could not keep its own "+
		"schedule, so those seconds' latency includes the tester's own delay. Give the tester more "+
		"CPU, lower the rate, or split the load across machines (--shard) to measure the target alone.", seconds))
}
