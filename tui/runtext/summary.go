package runtext

import (
	"fmt"
	"io"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// WriteSummaryLine writes a one-line compact summary of a run, for the end of headless output and
// for logs: counts, rate, outcome shares, the two latencies people quote, transfer and the
// invariant's verdict. Write errors are ignored: it is the last word of a run that already ended.
func WriteSummaryLine(w io.Writer, s *engine.Snapshot) {
	if s == nil {
		return
	}
	parts := SummaryParts(&s.Totals, RunSeconds(s), s.SaturatedSeconds)
	parts[0] = fmt.Sprintf("rpcstress %s: %s", ProfileName(s.Profile), parts[0])
	_, _ = fmt.Fprintln(w, strings.Join(parts, "; "))
}

// SummaryParts are the parts of a summary line of tot over secs seconds, with the seconds the
// tester was saturated: what WriteSummaryLine joins after the run's name, and the dashboard
// after each target's of a run with several.
func SummaryParts(tot *engine.Summary, secs float64, saturated int) []string {
	parts := []string{
		fmt.Sprintf("%d sent, %d completed in %s (%s/s)", tot.Sent, tot.Completed, textfmt.Seconds(secs), textfmt.RPS(tot.RPS)),
		fmt.Sprintf("ok %s limited %s failed %s", textfmt.Pct(tot.OK, tot.Completed),
			textfmt.Pct(tot.Limited, tot.Completed), textfmt.Pct(tot.Failed, tot.Completed)),
		fmt.Sprintf("p50 %s p99 %s ms", textfmt.Ms(tot.Latency.P50), textfmt.Ms(tot.Latency.P99)),
		"in " + textfmt.BytesRate(tot.BytesIn, secs),
	}
	if tot.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("dropped %d", tot.Dropped))
	}
	if saturated > 0 {
		parts = append(parts, fmt.Sprintf("tester saturated %ds", saturated))
	}
	return append(parts, "invariant "+InvariantMark(tot))
}
