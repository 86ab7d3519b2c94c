package tui

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// searchLineFormat is one probe line: fixed widths, 53 columns before the verdict, so that a
// verdict of one breach ("FAIL limited 4.73% > 1%") fits 80 columns; more breaches wrap under it.
const searchLineFormat = "%3s %-8s %7s %7s %7s %7s %6s  "

// SearchLinePrinter writes a find-limit search for non-terminals and --headless: a header with
// the SLO, one line per finished probe (each printed once, in order), and the answer block at
// the end. It is used from one goroutine.
type SearchLinePrinter struct {
	w       *textfmt.Writer
	printed int // probes printed so far
	burst   bool
	pctKey  string
}

// NewSearchLinePrinter makes a printer writing to w, in width cells (0: textfmt.DefaultWidth).
func NewSearchLinePrinter(w io.Writer, width int) *SearchLinePrinter {
	return &SearchLinePrinter{w: textfmt.NewWriter(w, width)}
}

// Err is the first error writing to the output, if any.
func (p *SearchLinePrinter) Err() error {
	if p.w.Err() != nil {
		return fmt.Errorf("write search lines: %w", p.w.Err())
	}
	return nil
}

// Header writes what is searched for and the column header.
func (p *SearchLinePrinter) Header(name, target string, pr *search.Progress) {
	if name == "" {
		name = "(unnamed)"
	}
	s := pr.Settings
	p.pctKey = runtext.PercentileKey(pr.SLO.Percentile)
	p.w.Paragraph("", "  ", fmt.Sprintf("rpcstress find-limit %s → %s", safetext.Line(name), safetext.Line(target)))
	// The SLO is what every verdict below is judged against: wrapped, never cut.
	p.w.Paragraph("SLO: ", "  ", runtext.SLOText(pr.SLO))
	p.w.Paragraph("", "  ", fmt.Sprintf("from %s up to %s, precision %s; probes of %s after %s settling; budget %s",
		textfmt.PerSec(s.StartRate), textfmt.PerSec(s.MaxRate), textfmt.Percent(s.PrecisionPct),
		textfmt.Seconds(s.ProbeS), textfmt.Seconds(s.SettleS), textfmt.Seconds(s.BudgetS)))
	p.w.Line(fmt.Sprintf(searchLineFormat, "#", "step", "rate", "ok/s", p.pctKey+" ms", "limited", "failed") + "verdict")
}

// Update prints the probes finished since the last call, and a line when the burst probe
// starts (it waits in silence for a while).
func (p *SearchLinePrinter) Update(pr *search.Progress) {
	if pr == nil {
		return
	}
	for ; p.printed < len(pr.Probes); p.printed++ {
		for _, l := range formatProbeLines(pr.Probes[p.printed], p.w.Width()) {
			p.w.Line(l)
		}
	}
	if c := pr.Current; c != nil && c.Phase == "burst" && !p.burst {
		p.burst = true
		p.w.Paragraph("  ", "    ", fmt.Sprintf("limiter burst probe: idle %s for the bucket to empty, then %s for %s",
			c.Settle, textfmt.PerSec(c.Rate), c.Measure))
	}
}

// formatProbeLines lays out one probe in width cells: its numbers, then its verdict, wrapped
// under itself when it holds more breaches than fit.
func formatProbeLines(pr engine.SearchProbe, width int) []string {
	cols := fmt.Sprintf(searchLineFormat, strconv.Itoa(pr.N), pr.Step, textfmt.PerSec(pr.Rate),
		textfmt.RPS(pr.Goodput), textfmt.Ms(pr.LatencyMs), textfmt.Percent(pr.LimitedPct), textfmt.Percent(pr.FailedPct))
	indent := strings.Repeat(" ", len(cols))
	var out []string
	for i, l := range textfmt.Wrap(runtext.ProbeVerdict(pr), max(width-len(cols), runtext.VerdictKeep)) {
		if i == 0 {
			out = append(out, cols+l)
		} else {
			out = append(out, indent+l)
		}
	}
	return out
}

// Final writes the answer and the limiter estimate.
func (p *SearchLinePrinter) Final(r *engine.SearchResult) {
	if r == nil {
		return
	}
	p.Update(&search.Progress{Probes: r.Probes})
	p.w.Line("")
	runtext.WriteAnswer(p.w, r)
	runtext.WriteLimiter(p.w, r.Limiter)
}
