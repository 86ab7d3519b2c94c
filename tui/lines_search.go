package tui

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// searchLineFormat is one probe line: fixed widths, under 100 columns before the verdict.
const searchLineFormat = "%3s %6s %-8s %10s %10s %9s %8s %8s  %s"

// SearchLinePrinter writes a find-limit search for non-terminals and --headless: a header with
// the SLO, one line per finished probe (each printed once, in order), and the answer block at
// the end. It is used from one goroutine.
type SearchLinePrinter struct {
	w       *errWriter
	printed int // probes printed so far
	burst   bool
	pctKey  string
}

// NewSearchLinePrinter makes a printer writing to w.
func NewSearchLinePrinter(w io.Writer) *SearchLinePrinter {
	return &SearchLinePrinter{w: &errWriter{w: w}}
}

// Err is the first error writing to the output, if any.
func (p *SearchLinePrinter) Err() error {
	if p.w.err != nil {
		return fmt.Errorf("write search lines: %w", p.w.err)
	}
	return nil
}

// Header writes what is searched for and the column header.
func (p *SearchLinePrinter) Header(name, target string, pr *search.Progress) {
	if name == "" {
		name = "(unnamed)"
	}
	s := pr.Settings
	p.pctKey = searchPercentileKey(pr.SLO.Percentile)
	p.w.line(truncate(fmt.Sprintf("rpcstress find-limit %s → %s", safetext.Line(name), safetext.Line(target)), reportWidth))
	p.w.line(truncate("SLO: "+searchSLOText(pr.SLO), reportWidth))
	p.w.line(truncate(fmt.Sprintf("from %s up to %s, precision %s; probes of %s after %s settling; budget %s",
		searchRate(s.StartRate), searchRate(s.MaxRate), searchPct(s.PrecisionPct),
		formatSeconds(s.ProbeS), formatSeconds(s.SettleS), formatSeconds(s.BudgetS)), reportWidth))
	p.w.line(strings.TrimRight(fmt.Sprintf(searchLineFormat, "#", "t", "step", "rate", "ok/s", p.pctKey+" ms", "limited", "failed", "verdict"), " "))
}

// Update prints the probes finished since the last call, and a line when the burst probe
// starts (it waits in silence for a while).
func (p *SearchLinePrinter) Update(pr *search.Progress) {
	if pr == nil {
		return
	}
	for ; p.printed < len(pr.Probes); p.printed++ {
		p.w.line(truncate(formatProbeLine(pr.Probes[p.printed]), reportWidth))
	}
	if c := pr.Current; c != nil && c.Phase == "burst" && !p.burst {
		p.burst = true
		p.w.line(truncate(fmt.Sprintf("  limiter burst probe: idle %s for the bucket to empty, then %s for %s",
			c.Settle, searchRate(c.Rate), c.Measure), reportWidth))
	}
}

// formatProbeLine lays out one probe.
func formatProbeLine(pr engine.SearchProbe) string {
	return strings.TrimRight(fmt.Sprintf(searchLineFormat, strconv.Itoa(pr.N), strconv.FormatFloat(pr.StartS, 'f', 1, 64)+"s", pr.Step,
		searchRate(pr.Rate), formatRPS(pr.Goodput), formatMs(pr.LatencyMs), searchPct(pr.LimitedPct),
		searchPct(pr.FailedPct), probeVerdict(pr)), " ")
}

// Final writes the answer and the limiter estimate.
func (p *SearchLinePrinter) Final(r *engine.SearchResult) {
	if r == nil {
		return
	}
	p.Update(&search.Progress{Probes: r.Probes})
	p.w.line("")
	writeSearchAnswer(p.w, r)
	writeSearchLimiter(p.w, r.Limiter)
}
