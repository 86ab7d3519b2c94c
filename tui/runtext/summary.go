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
	tot := &s.Totals
	secs := RunSeconds(s)
	parts := []string{
		fmt.Sprintf("rpcstress %s: %d sent, %d completed in %s (%s/s)",
			ProfileName(s.Profile), tot.Sent, tot.Completed, textfmt.Seconds(secs), textfmt.RPS(tot.RPS)),
		fmt.Sprintf("ok %s limited %s failed %s", textfmt.Pct(tot.OK, tot.Completed),
			textfmt.Pct(tot.Limited, tot.Completed), textfmt.Pct(tot.Failed, tot.Completed)),
		fmt.Sprintf("p50 %s p99 %s ms", textfmt.Ms(tot.Latency.P50), textfmt.Ms(tot.Latency.P99)),
		"in " + textfmt.BytesRate(tot.BytesIn, secs),
	}
	if tot.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("dropped %d", tot.Dropped))
	}
	if s.SaturatedSeconds > 0 {
		parts = append(parts, fmt.Sprintf("tester saturated %ds", s.SaturatedSeconds))
	}
	parts = append(parts, "invariant "+InvariantMark(tot))
	_, _ = fmt.Fprintln(w, strings.Join(parts, "; "))
}
